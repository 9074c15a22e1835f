/** The stored network inventory: transactional import, summary and site lists, demo data. */
export { importDump, assertImportFormat, isDumpInputError, NetworkImportError, IMPORT_FORMATS, DEFAULT_BATCH_SIZE } from './importer';
export type { ImportDumpOptions, ImportDumpResult, ImportFormat } from './importer';
export { countStored, getNetworkSummary, lastImportDate, findSiteOptions, escapeLike, nodesPerSite, SITE_OPTIONS_LIMIT, LARGEST_SITES } from './queries';
export type { NetworkSummary, SiteOption, SiteOptionsFilter } from './queries';
export { importDemoNetworkIfEmpty, DEMO_NETWORK_SITES, DEMO_NETWORK_FILE } from './demo';
export type { DemoNetworkOptions, DemoNetworkImport } from './demo';
export type { NetworkTables } from './tables';
