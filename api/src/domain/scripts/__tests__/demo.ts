/* Shared by the colocated tests of this folder: a small demo network in Ericsson Bulk CM, read back by the importer. */
import { PassThrough } from 'node:stream';
import { parseBulkCm } from '../../network/bulkcm';
import { generateDemoBulkCm } from '../../../demo/network';
import { mapNetwork } from '../../network/mapper';
import { capture, type Captured } from '../../network/__tests__/helpers';
import { NetworkIndex } from '../../planning/network-index';

/** The demo generator's Bulk CM for `sites` sites, parsed and mapped as an import would. */
export async function demoDump(sites = 8, seed = 46): Promise<Captured> {
  const pipe = new PassThrough();
  const { sink, got } = capture();
  await Promise.all([generateDemoBulkCm(pipe, { seed, sites }), mapNetwork(parseBulkCm(pipe), sink, { coords: 'microdegrees' })]);
  return got;
}

export const indexOf = (got: Captured): NetworkIndex => new NetworkIndex({ cells: got.cells, externalCells: got.externalCells, relations: got.relations });
