// What the console shares under the name 'react-hook-form' (see RHF_SHARE in sharing.js): the hooks
// its forms call and the helpers @hookform/resolvers/yup imports. A shared module cannot be
// tree-shaken: shared whole, react-hook-form is 15.9 KB gz on every page with a form, field arrays,
// form providers and all. Imported through the alias 'react-hook-form-esm' (its ES build by file: its
// exports map offers no subpath) so that this module is not itself taken for the shared one.
// shell/src/federation/sharing.test.ts fails when code imports a name that is missing here.
// eslint-disable-next-line import-x/no-unresolved
export { Controller, useForm, useWatch, appendErrors, get, set } from 'react-hook-form-esm';
