import { rdns } from './mo';
import { toSignedInt } from './text';
import { type MoAttribute, type RetRow } from './types';

/**
 * RET information from the RetSubUnit attributes read by `hget retsubunit electricalAntennaTilt|
 * operationalState|userLabel|maxTilt|minTilt|iuantAntennaSerialNumber` (or `get`). Tilts are in 0.1°
 * on the node (`30` is 3.0°): both the raw value and degrees are given. One row per RetSubUnit MO and
 * node, in the order first seen; a later value of the same attribute wins.
 */
export function retRows(attributes: readonly MoAttribute[]): RetRow[] {
  const out: RetRow[] = [];
  // By node, then by MO: the values of one MO share its string, hashed once (a joined key is hashed anew each time).
  const byNode = new Map<string, Map<string, RetRow>>();
  let node: string | null = null;
  let rows: Map<string, RetRow> | undefined;
  for (const a of attributes) {
    const cls = a.moClass;
    // The length first: one number compared for the many attributes of other classes.
    if (cls === null || cls.length !== 10 || cls !== 'RetSubUnit') continue;
    if (a.node !== node || rows === undefined) {
      node = a.node;
      rows = byNode.get(node);
      if (rows === undefined) {
        rows = new Map();
        byNode.set(node, rows);
      }
    }
    let row = rows.get(a.mo);
    if (!row) {
      row = emptyRow(a);
      rows.set(a.mo, row);
      out.push(row);
    }
    apply(row, a.attribute, a.value);
  }
  return out;
}

function emptyRow(a: MoAttribute): RetRow {
  const ids = new Map(rdns(a.mo));
  return {
    node: a.node,
    mo: a.mo,
    antennaUnitGroup: ids.get('AntennaUnitGroup') ?? null,
    antennaNearUnit: ids.get('AntennaNearUnit') ?? null,
    retSubUnit: ids.get('RetSubUnit') ?? null,
    electricalAntennaTilt: null,
    tiltDegrees: null,
    maxTilt: null,
    maxTiltDegrees: null,
    minTilt: null,
    minTiltDegrees: null,
    operationalState: null,
    userLabel: null,
    serialNumber: null,
    source: a.source,
  };
}

const tenths = (raw: number | null): number | null => (raw === null ? null : raw / 10);

/** `1 (ENABLED)` → `ENABLED`; other values as printed. */
export function enumWord(value: string): string {
  const open = value.indexOf('(');
  const close = value.lastIndexOf(')');
  return open >= 0 && close > open ? value.slice(open + 1, close).trim() : value.trim();
}

function apply(row: RetRow, attribute: string, value: string): void {
  switch (attribute.toLowerCase()) {
    case 'electricalantennatilt':
      row.electricalAntennaTilt = toSignedInt(value);
      row.tiltDegrees = tenths(row.electricalAntennaTilt);
      break;
    case 'maxtilt':
      row.maxTilt = toSignedInt(value);
      row.maxTiltDegrees = tenths(row.maxTilt);
      break;
    case 'mintilt':
      row.minTilt = toSignedInt(value);
      row.minTiltDegrees = tenths(row.minTilt);
      break;
    case 'operationalstate':
      row.operationalState = value ? enumWord(value) : null;
      break;
    case 'userlabel':
      row.userLabel = value || null;
      break;
    case 'iuantantennaserialnumber':
      row.serialNumber = value || null;
      break;
    default:
      break;
  }
}
