import { NetworkParseError } from './errors';

/**
 * NR cell identity (3GPP TS 38.413 §9.3.1.7, TS 23.003 §19.6A): the 36-bit NCI is the gNB id in its
 * leading `gNBIdLength` bits (22 to 32) followed by the cell's local id. Exports often carry `nCI` but
 * leave `gNBId` out (an ENM `cmedit get` of NRCellDU alone, a CU-only Bulk CM excerpt), so the gNB id
 * and with it the NCGI come from the NCI.
 */
export const NCI_BITS = 36;
export const MIN_GNB_ID_LENGTH = 22;
export const MAX_GNB_ID_LENGTH = 32;
/** Ericsson's default `gNBIdLength` on GNBDUFunction / GNBCUCPFunction: what a node that does not list it uses. */
export const DEFAULT_GNB_ID_LENGTH = 22;

export interface NrCellIdentity {
  gnbId: number;
  cellLocalId: number;
}

/** Where a bad value came from, so the error names the MO and line as the mapper's other checks do. */
export interface ValueSource {
  className: string;
  id: string;
  line?: number;
  column?: number;
}

function bad(at: ValueSource, what: string): NetworkParseError {
  return new NetworkParseError(at.line ?? 0, at.column ?? 1, `${at.className}=${at.id}: ${what}`);
}

/** Splits an NCI; throws (naming the MO) when the NCI is not 36 bits or the length is outside 22..32. */
export function splitNci(nci: number, gnbIdLength: number, at: ValueSource): NrCellIdentity {
  if (!Number.isInteger(gnbIdLength) || gnbIdLength < MIN_GNB_ID_LENGTH || gnbIdLength > MAX_GNB_ID_LENGTH) {
    throw bad(at, `gNBIdLength = ${gnbIdLength} is outside ${MIN_GNB_ID_LENGTH}..${MAX_GNB_ID_LENGTH}`);
  }
  if (!Number.isSafeInteger(nci) || nci < 0 || nci >= 2 ** NCI_BITS) throw bad(at, `nCI = ${nci} is not a ${NCI_BITS}-bit NR cell identity`);
  const cellSpace = 2 ** (NCI_BITS - gnbIdLength);
  return { gnbId: Math.floor(nci / cellSpace), cellLocalId: nci % cellSpace };
}
