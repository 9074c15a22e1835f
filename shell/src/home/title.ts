/** Home's title: its page draws it, and the shell while home's code loads (a module of its own, so that costs no page code). */
export const HOME_TITLE = 'Welcome to Cellwise';
