// The API's request and response contracts. Browser packages import these types (type-only), so a
// contract change fails their build.
export * from './common';
export * from './account';
export * from './network';
export * from './notifications';
export * from './management';
export * from './files';
export * from './tracking';
export * from './jobs';
export * from './monitoring';
export * from './alarm-console';
export * from './runs';
export * from './planning';
export * from './dashboards';
export * from './table-settings';
