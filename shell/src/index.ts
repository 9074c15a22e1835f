// Async boundary: the federation runtime negotiates shared singletons before any of them runs. Named:
// the build lists this chunk group's chunks in the page (tools/webpack/startup-scripts.js).
void import(/* webpackChunkName: "bootstrap" */ './bootstrap');
