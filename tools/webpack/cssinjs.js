// What the console shares under the name '@ant-design/cssinjs' (see CSSINJS_SHARE in index.js): the names
// antd, its icons and cssinjs-utils import from it. A shared module cannot be tree-shaken, and the package
// whole also carries what none of them calls (style extraction for server rendering, the px2rem, logical
// properties and prefixing transformers with stylis' prefixer, the development linters' exports).
// Taken from the package's own modules, not its entry, so that this module is not itself taken for the
// shared one. shell/src/federation/sharing.test.ts fails when a bundled package imports a name missing here.
/* eslint-disable import-x/no-extraneous-dependencies -- antd's own dependency: importing it as installed keeps the two versions one */
export { default as Keyframes } from '@ant-design/cssinjs/es/Keyframes';
export { default as StyleContext } from '@ant-design/cssinjs/es/StyleContext';
export { default as useCacheToken, getComputedToken } from '@ant-design/cssinjs/es/hooks/useCacheToken';
export { default as useCSSVarRegister } from '@ant-design/cssinjs/es/hooks/useCSSVarRegister';
export { default as useStyleRegister } from '@ant-design/cssinjs/es/hooks/useStyleRegister';
export { createTheme } from '@ant-design/cssinjs/es/theme';
export { unit } from '@ant-design/cssinjs/es/util';
export { token2CSSVar } from '@ant-design/cssinjs/es/util/css-variables';
