// Stands in for axios's fetch adapter in the browser builds (tools/webpack/axios.js): fetch is "not available".
export const getFetch = () => null;
export default null;
