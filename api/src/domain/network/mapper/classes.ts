import { type CellTech, type ExternalCellKind, type Rat } from '../model';

/** The MO classes the mapper reads, by what they are (docs/engines/network.md, "The mapper: what MOs are read"). */

export const CELL_CLASSES: Record<string, CellTech> = {
  GeranCell: '2G',
  GsmCell: '2G',
  GsmSector: '2G',
  UtranCell: '3G',
  UtranCellFDD: '3G',
  EUtranCellFDD: '4G',
  EUtranCellTDD: '4G',
  NRCellDU: '5G',
  NRCellCU: '5G',
  NbIotCell: 'NB-IoT',
};

export const EXTERNAL_CLASSES: Record<string, ExternalCellKind> = {
  ExternalGeranCell: '2G',
  ExternalGsmCell: '2G',
  ExternalUtranCell: '3G',
  ExternalUtranCellFDD: '3G',
  ExternalUtranCellTDD: '3G',
  ExternalEUtranCell: '4G',
  ExternalEUtranCellFDD: '4G',
  ExternalEUtranCellTDD: '4G',
  ExternalNRCellCU: '5G',
  ExternalGUtranCell: '5G',
};

/** Relation classes with the target RAT to assume when the target DN does not tell. */
export const RELATION_CLASSES: Record<string, Rat> = {
  EUtranCellRelation: 'LTE',
  EUtranRelation: 'LTE',
  UtranCellRelation: 'UTRAN',
  UtranRelation: 'UTRAN',
  GeranCellRelation: 'GERAN',
  GsmRelation: 'GERAN',
  GUtranCellRelation: 'NR',
  NRCellRelation: 'NR',
};

/** Where relations keep their target, by vendor and release; the first present one wins. */
export const TARGET_ATTRIBUTES = [
  'neighborCellRef',
  'adjacentCell',
  'nRCellRef',
  'utranCellRef',
  'externalUtranCellFDDRef',
  'extGeranCellRef',
  'externalGsmCellRef',
  'geranCellRef',
  'eUtranCellRef',
  'gUtranCellRef',
  'extGUtranCellRef',
];

export type FunctionInfo = { tech: '2G' | '3G' | '4G' | '5G'; controller: boolean };
export const FUNCTION_CLASSES: Record<string, FunctionInfo> = {
  ENodeBFunction: { tech: '4G', controller: false },
  GNBDUFunction: { tech: '5G', controller: false },
  GNBCUCPFunction: { tech: '5G', controller: false },
  GNBCUUPFunction: { tech: '5G', controller: false },
  NodeBFunction: { tech: '3G', controller: false },
  BtsFunction: { tech: '2G', controller: false },
  RncFunction: { tech: '3G', controller: true },
  BscFunction: { tech: '2G', controller: true },
  BssFunction: { tech: '2G', controller: true },
};

/**
 * Classes that, met anywhere in a DN, show a technology the node runs even when the export lists none
 * of its cells or functions (a `cmedit get` of NRSectorCarrier alone): the function classes, and
 * GsmSector, under which a BTS's Trx and channel groups live.
 */
export const DN_TECHNOLOGY_CLASSES: Record<string, '2G' | '3G' | '4G' | '5G'> = {
  ...Object.fromEntries(Object.entries(FUNCTION_CLASSES).map(([cls, info]) => [cls, info.tech])),
  GsmSector: '2G',
};

/** MOs whose `latitude`/`longitude` locate the whole site. */
export const LOCATION_CLASSES = new Set([
  'MeContext',
  'ManagedElement',
  'Site',
  'ENodeBFunction',
  'GNBDUFunction',
  'GNBCUCPFunction',
  'NodeBFunction',
  'BtsFunction',
]);

/** Frequency / carrier MOs that cells and external cells reference, with the attribute holding the channel. */
export const FREQUENCY_CLASSES: Record<string, string[]> = {
  EUtranFrequency: ['arfcnValueEUtranDl', 'earfcnDl', 'earfcn'],
  UtranFrequency: ['arfcnValueUtranDl', 'uarfcnDl'],
  GeranFrequency: ['arfcnValueGeranDl', 'arfcn'],
  GUtranSyncSignalFrequency: ['arfcn', 'ssbFrequency'],
  NRFrequency: ['arfcnValueNRDl', 'ssbFrequency', 'arfcn'],
  NRSectorCarrier: ['arfcnDL', 'arfcnDl'],
};

export function ratOf(tech: CellTech | ExternalCellKind): Rat {
  switch (tech) {
    case '2G':
      return 'GERAN';
    case '3G':
      return 'UTRAN';
    case '4G':
    case 'NB-IoT':
      return 'LTE';
    case '5G':
      return 'NR';
  }
}
