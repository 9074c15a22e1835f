/** tableau-api-js is evaluated for its effect (it sets `window.tableau`, typed in ./tableau.ts); it exports nothing. */
declare module 'tableau-api-js' {}
