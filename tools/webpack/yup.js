// What the console shares under the name 'yup' (see YUP_SHARE in sharing.js): the schema builders its
// forms use. A shared module cannot be tree-shaken, and yup whole (dates, tuples, lazy schemas, locale
// tables...) costs every form page a few KB more than it needs. Imported by file so that this module is
// not itself taken for the shared one. shell/src/federation/sharing.test.ts fails when code uses a name
// of yup that is missing here.
// eslint-disable-next-line import-x/no-extraneous-dependencies
export { array, number, object, ref, string, ValidationError } from 'yup/index.esm.js';
