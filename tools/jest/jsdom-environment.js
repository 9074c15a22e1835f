// jsdom's test environment, with larger caches for its selector engine (nwsapi).
//
// jsdom computes an element's style by matching it against every rule of every stylesheet, and antd
// injects a few thousand distinct selectors. nwsapi keeps its compiled selectors in caches of 1,000
// entries (least recently used first out), so each walk over the rules compiled nearly every selector
// again: about half of a table page suite's CPU time went to compiling selectors (getByRole and
// toBeVisible ask for styles on every query). What a selector matches does not change; only how many
// compiled ones are kept.
const path = require('node:path');

const nwsapiFile = require.resolve('nwsapi', { paths: [path.dirname(require.resolve('jsdom'))] });
const createNwsapi = require(nwsapiFile);

/** Turns one of nwsapi's LRU caches (same methods) into an unbounded Map. */
function unbounded(cache) {
  const entries = new Map();
  cache.get = (key) => entries.get(key);
  cache.has = (key) => entries.has(key);
  cache.set = (key, value) => {
    entries.set(key, value);
    return value;
  };
  cache.clear = () => entries.clear();
  cache.size = () => entries.size;
}

function nwsapiWithUnboundedCaches(...args) {
  const api = createNwsapi(...args);
  for (const cache of [api.matchLambdas, api.selectLambdas, api.matchResolvers, api.selectResolvers]) unbounded(cache);
  return api;
}

// Before jsdom is first loaded (by the environment below), so its selector helper requires this one.
require.cache[nwsapiFile].exports = nwsapiWithUnboundedCaches;

module.exports = require('jest-environment-jsdom');
