/**
 * The demo network (docs/engines/network.md): a deterministic Ericsson-flavour Bulk CM file per demo
 * operator, written from a site plan, for first start, tests and benches. Read back by the real network
 * import, so the demo exercises the same code a customer's dump does.
 */
export { generateDemoBulkCm } from './bulk-cm';
export { LISBON } from './lisbon';
export { planDemoNetwork } from './plan';
export type { DemoLayerSite, DemoOptions, DemoPlmn, DemoRegion, DemoSite, DemoSummary } from './model';
