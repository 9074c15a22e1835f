export * from './values';
export * from './fields';
export * from './headers';
export * from './rows';
export * from './sync';
export * from './delta';
export * from './filters';
