/** Planning, validation and optimisation engines (docs/engines/planning.md): pure functions, no I/O. */
export { PlanningError } from './errors';
export * from './constants';
export * from './raster';
export * from './geo';
export type { PlacedCell } from './placed';
export { placeCells } from './placed';
export * from './pci';
export * from './prach';
export * from './tac';
export * from './sectors';
export * from './parameter-planning';
export * from './cpich';
export * from './network-index';
export * from './neighbour-validation';
export * from './ran-share';
export * from './optimisation';
