/**
 * A checker of the moshell command grammar the corrective scripts use (issue 46: "syntax checked
 * against the AMOS command reference"). It knows the command words and their argument forms, and the
 * part of Ericsson's MOM the scripts touch: each MO class with the classes it may sit under, its
 * attributes with their value forms (integer with its range, boolean, struct fields, a reference and the
 * classes it may point at, a word) and the attributes `crn` must be given. It is independent of the
 * writer on purpose: the tests run it on every generated file, and the zip builder refuses a file it
 * rejects, so a generator bug cannot ship a script moshell would stop on halfway.
 */

type ValueForm =
  | { kind: 'int'; min?: number; max?: number }
  | { kind: 'bool' }
  | { kind: 'struct'; fields: readonly string[] }
  | { kind: 'ref'; to: readonly string[] }
  | { kind: 'text' };

interface MoClass {
  parents: readonly string[];
  attributes: Readonly<Record<string, ValueForm>>;
  /** What `crn` must set. */
  mandatory: readonly string[];
  /** Attributes `set` may change (restricted ones need the MO deleted and created again). */
  settable: readonly string[];
}

const INT = (min?: number, max?: number): ValueForm => ({ kind: 'int', ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) });
const BOOL: ValueForm = { kind: 'bool' };
const TEXT: ValueForm = { kind: 'text' };
const PLMN: ValueForm = { kind: 'struct', fields: ['mcc', 'mnc', 'mncLength'] };
const REF = (...to: string[]): ValueForm => ({ kind: 'ref', to });
const EUTRAN_CELLS = ['EUtranCellFDD', 'EUtranCellTDD'];
const RELATION_FLAGS = { isHoAllowed: BOOL, isRemoveAllowed: BOOL };

/** The MO classes the scripts create, change or delete (Ericsson LTE, WCDMA RNC and NR MOMs). */
export const MOM: Readonly<Record<string, MoClass>> = {
  // eNodeB: neighbours per frequency, proxies of other nodes' cells.
  EUtranFreqRelation: {
    parents: EUTRAN_CELLS,
    attributes: { eutranFrequencyRef: REF('EUtranFrequency'), cellReselectionPriority: INT(0, 7) },
    mandatory: ['eutranFrequencyRef'],
    settable: ['cellReselectionPriority'],
  },
  EUtranCellRelation: {
    parents: ['EUtranFreqRelation'],
    attributes: {
      neighborCellRef: REF(...EUTRAN_CELLS, 'ExternalEUtranCellFDD', 'ExternalEUtranCellTDD'),
      ...RELATION_FLAGS,
      cellIndividualOffsetEUtran: INT(-24, 24),
    },
    mandatory: ['neighborCellRef'],
    settable: ['isHoAllowed', 'isRemoveAllowed', 'cellIndividualOffsetEUtran'],
  },
  ExternalENodeBFunction: {
    parents: ['EUtraNetwork'],
    attributes: { eNBId: INT(0, 1048575), eNodeBPlmnId: PLMN, userLabel: TEXT },
    mandatory: ['eNBId', 'eNodeBPlmnId'],
    settable: ['userLabel'],
  },
  ExternalEUtranCellFDD: {
    parents: ['ExternalENodeBFunction'],
    attributes: {
      localCellId: INT(0, 255),
      physicalLayerCellIdGroup: INT(0, 167),
      physicalLayerSubCellId: INT(0, 2),
      tac: INT(0, 65535),
      eutranFrequencyRef: REF('EUtranFrequency'),
      isRemoveAllowed: BOOL,
      userLabel: TEXT,
    },
    mandatory: ['localCellId', 'physicalLayerCellIdGroup', 'physicalLayerSubCellId', 'tac', 'eutranFrequencyRef'],
    settable: ['physicalLayerCellIdGroup', 'physicalLayerSubCellId', 'tac', 'isRemoveAllowed', 'userLabel'],
  },
  UtranFreqRelation: {
    parents: EUTRAN_CELLS,
    attributes: { utranFrequencyRef: REF('UtranFrequency') },
    mandatory: ['utranFrequencyRef'],
    settable: [],
  },
  UtranCellRelation: {
    parents: ['UtranFreqRelation'],
    attributes: { externalUtranCellFDDRef: REF('ExternalUtranCellFDD'), ...RELATION_FLAGS },
    mandatory: ['externalUtranCellFDDRef'],
    settable: ['isHoAllowed', 'isRemoveAllowed'],
  },
  ExternalUtranCellFDD: {
    parents: ['UtranFrequency'],
    attributes: { physicalCellIdentity: INT(0, 511), lac: INT(1, 65535), isRemoveAllowed: BOOL },
    mandatory: [],
    settable: ['physicalCellIdentity', 'lac', 'isRemoveAllowed'],
  },
  GeranFreqGroupRelation: { parents: EUTRAN_CELLS, attributes: { geranFreqGroupRef: REF('GeranFreqGroup') }, mandatory: ['geranFreqGroupRef'], settable: [] },
  GeranCellRelation: {
    parents: ['GeranFreqGroupRelation'],
    attributes: { extGeranCellRef: REF('ExternalGeranCell'), isRemoveAllowed: BOOL },
    mandatory: ['extGeranCellRef'],
    settable: ['isRemoveAllowed'],
  },
  ExternalGeranCell: {
    parents: ['GeraNetwork'],
    attributes: { ncc: INT(0, 7), bcc: INT(0, 7), lac: INT(1, 65535), isRemoveAllowed: BOOL },
    mandatory: [],
    settable: ['ncc', 'bcc', 'lac', 'isRemoveAllowed'],
  },
  // EN-DC on the LTE anchor: the NR SSB frequency, the gNB and its cells as proxies, the relations.
  GUtranSyncSignalFrequency: {
    parents: ['GUtraNetwork'],
    attributes: { arfcn: INT(0, 3279165), smtcScs: INT(15, 240), smtcPeriodicity: INT(5, 160), smtcDuration: INT(1, 5), smtcOffset: INT(0, 159) },
    mandatory: ['arfcn', 'smtcScs'],
    settable: ['smtcPeriodicity', 'smtcDuration', 'smtcOffset'],
  },
  ExternalGNodeBFunction: {
    parents: ['GUtraNetwork'],
    attributes: { gNodeBId: INT(0, 4294967295), gNodeBIdLength: INT(22, 32), gNodeBPlmnId: PLMN, userLabel: TEXT },
    mandatory: ['gNodeBId', 'gNodeBIdLength', 'gNodeBPlmnId'],
    settable: ['userLabel'],
  },
  ExternalGUtranCell: {
    parents: ['ExternalGNodeBFunction'],
    attributes: {
      localCellId: INT(0, 16383),
      physicalLayerCellIdGroup: INT(0, 335),
      physicalLayerSubCellId: INT(0, 2),
      gUtranSyncSignalFrequencyRef: REF('GUtranSyncSignalFrequency'),
      isRemoveAllowed: BOOL,
      userLabel: TEXT,
    },
    mandatory: ['localCellId', 'physicalLayerCellIdGroup', 'physicalLayerSubCellId', 'gUtranSyncSignalFrequencyRef'],
    settable: ['physicalLayerCellIdGroup', 'physicalLayerSubCellId', 'isRemoveAllowed', 'userLabel'],
  },
  GUtranFreqRelation: {
    parents: EUTRAN_CELLS,
    attributes: { gUtranSyncSignalFrequencyRef: REF('GUtranSyncSignalFrequency'), endcB1MeasPriority: INT(0, 7), cellReselectionPriority: INT(0, 7) },
    mandatory: ['gUtranSyncSignalFrequencyRef'],
    settable: ['endcB1MeasPriority', 'cellReselectionPriority'],
  },
  GUtranCellRelation: {
    parents: ['GUtranFreqRelation'],
    attributes: { neighborCellRef: REF('ExternalGUtranCell'), isRemoveAllowed: BOOL },
    mandatory: ['neighborCellRef'],
    settable: ['isRemoveAllowed'],
  },
  // WCDMA RNC: the cell's powers (0.1 dBm) and its relations.
  UtranCell: {
    parents: ['RncFunction'],
    attributes: { primaryCpichPower: INT(-100, 500), maximumTransmissionPower: INT(0, 500) },
    mandatory: [],
    settable: ['primaryCpichPower', 'maximumTransmissionPower'],
  },
  UtranRelation: {
    parents: ['UtranCell'],
    attributes: { utranCellRef: REF('UtranCell', 'ExternalUtranCell') },
    mandatory: ['utranCellRef'],
    settable: [],
  },
  GsmRelation: { parents: ['UtranCell'], attributes: { externalGsmCellRef: REF('ExternalGsmCell') }, mandatory: ['externalGsmCellRef'], settable: [] },
  ExternalUtranCell: {
    parents: ['IurLink'],
    attributes: { primaryScramblingCode: INT(0, 511), lac: INT(1, 65535) },
    mandatory: [],
    settable: ['primaryScramblingCode', 'lac'],
  },
  // gNodeB: the NR cell (DU and CU parts) on its sector carrier, NR neighbours.
  NRSectorCarrier: {
    parents: ['GNBDUFunction'],
    attributes: {
      arfcnDL: INT(0, 3279165),
      arfcnUL: INT(0, 3279165),
      bSChannelBwDL: INT(5, 400),
      bSChannelBwUL: INT(5, 400),
      sectorEquipmentFunctionRef: REF('SectorEquipmentFunction'),
    },
    mandatory: ['arfcnDL', 'arfcnUL', 'bSChannelBwDL', 'bSChannelBwUL'],
    settable: ['arfcnDL', 'arfcnUL', 'bSChannelBwDL', 'bSChannelBwUL', 'sectorEquipmentFunctionRef'],
  },
  NRCellDU: {
    parents: ['GNBDUFunction'],
    attributes: {
      cellLocalId: INT(0, 16383),
      nRPCI: INT(0, 1007),
      nRTAC: INT(0, 16777215),
      nRSectorCarrierRef: REF('NRSectorCarrier'),
      ssbFrequency: INT(0, 3279165),
      ssbSubCarrierSpacing: INT(15, 240),
      subCarrierSpacing: INT(15, 240),
      rachRootSequence: INT(0, 837),
    },
    mandatory: ['cellLocalId', 'nRPCI', 'nRTAC', 'nRSectorCarrierRef', 'ssbFrequency', 'ssbSubCarrierSpacing', 'subCarrierSpacing'],
    settable: ['nRPCI', 'nRTAC', 'ssbFrequency', 'rachRootSequence'],
  },
  NRCellCU: { parents: ['GNBCUCPFunction'], attributes: { cellLocalId: INT(0, 16383) }, mandatory: ['cellLocalId'], settable: [] },
  NRCellRelation: {
    parents: ['NRCellCU'],
    attributes: { nRCellRef: REF('NRCellCU', 'ExternalNRCellCU'), isHoAllowed: BOOL, isRemoveAllowed: BOOL },
    mandatory: ['nRCellRef'],
    settable: ['isHoAllowed', 'isRemoveAllowed'],
  },
  ExternalGNBCUCPFunction: {
    parents: ['NRNetwork'],
    attributes: { gNBId: INT(0, 4294967295), gNBIdLength: INT(22, 32), pLMNId: PLMN },
    mandatory: ['gNBId', 'gNBIdLength', 'pLMNId'],
    settable: [],
  },
  ExternalNRCellCU: {
    parents: ['ExternalGNBCUCPFunction'],
    attributes: { cellLocalId: INT(0, 16383), nRPCI: INT(0, 1007), nRTAC: INT(0, 16777215), nRFrequencyRef: REF('NRFrequency') },
    mandatory: ['cellLocalId', 'nRFrequencyRef'],
    settable: ['nRPCI', 'nRTAC'],
  },
};

/** The finding kinds a comment above a command may name (mos.ts FINDING_LABELS, spelt again so the two are checked against each other). */
const FINDINGS = /^# (undo )?(MISSING|EXTRA|WRONG|CPICH|REMOVE|BLOCK|ADD|PLANNED|EN-DC) \S/;
const RDN = /^[A-Z][A-Za-z0-9]*=[^\s,=#]+$/;
const ATTRIBUTE = /^[a-z][A-Za-z0-9]*$/;
const CV_NAME = /^[A-Za-z0-9_-]+(\$date)?$/;
const DATE_ASSIGNMENT = '$date = `date +%y%m%d_%H%M`';

export interface GrammarError {
  line: number;
  message: string;
}

function ldnError(ldn: string): string | null {
  if (ldn === '') return 'an LDN is missing';
  for (const rdn of ldn.split(',')) if (!RDN.test(rdn)) return `"${rdn}" is not Class=id`;
  return null;
}

const rdnsOf = (ldn: string): Array<{ cls: string; id: string }> =>
  ldn.split(',').map((rdn) => ({ cls: rdn.slice(0, rdn.indexOf('=')), id: rdn.slice(rdn.indexOf('=') + 1) }));

/** A set/del filter back to the LDN it names: a trailing `$`, every metacharacter escaped. */
function filterLdn(filter: string): { ldn: string } | { error: string } {
  if (!filter.endsWith('$') || filter.endsWith('\\$')) return { error: `the filter "${filter}" is not anchored with $, so it may match other MOs` };
  const body = filter.slice(0, -1);
  let out = '';
  for (let i = 0; i < body.length; i += 1) {
    const ch = body[i]!;
    if (ch === '\\') {
      const next = body[i + 1];
      if (next === undefined) return { error: `the filter "${filter}" ends with a lone backslash` };
      out += next;
      i += 1;
    } else if ('^$.*+?()[]{}|'.includes(ch)) {
      return { error: `the filter "${filter}" has an unescaped "${ch}": it would match more than one MO` };
    } else out += ch;
  }
  return { ldn: out };
}

function valueError(form: ValueForm, value: string): string | null {
  switch (form.kind) {
    case 'int': {
      if (!/^-?\d+$/.test(value)) return `"${value}" is not an integer`;
      const n = Number(value);
      if ((form.min !== undefined && n < form.min) || (form.max !== undefined && n > form.max)) return `${value} is outside ${form.min}..${form.max}`;
      return null;
    }
    case 'bool':
      return value === 'true' || value === 'false' ? null : `"${value}" is not true or false`;
    case 'struct': {
      const fields = value.split(',').map((f) => f.split('='));
      if (fields.some((f) => f.length !== 2 || !/^-?\d+$/.test(f[1]!))) return `"${value}" is not a struct of name=number fields`;
      const names = fields.map((f) => f[0]!);
      if (names.join(',') !== form.fields.join(',')) return `"${value}" should have the fields ${form.fields.join(', ')}`;
      return null;
    }
    case 'ref': {
      const error = ldnError(value);
      if (error) return `the reference ${value}: ${error}`;
      const cls = rdnsOf(value).at(-1)!.cls;
      return form.to.includes(cls) ? null : `a reference to ${cls}, expected ${form.to.join(' or ')}`;
    }
    case 'text':
      return /^[^\s#]+$/.test(value) ? null : `"${value}" is not one word`;
  }
}

/** The class of the MO an LDN names, checked against the MOM (known class, allowed parent). */
function moError(ldn: string): { cls: MoClass; name: string } | { error: string } {
  const ldnProblem = ldnError(ldn);
  if (ldnProblem) return { error: ldnProblem };
  const rdns = rdnsOf(ldn);
  const name = rdns.at(-1)!.cls;
  const cls = MOM[name];
  if (!cls) return { error: `${name} is not an MO class the scripts may touch` };
  const parent = rdns.at(-2)?.cls;
  if (!parent || !cls.parents.includes(parent)) return { error: `${name} cannot sit under ${parent ?? 'nothing'} (only ${cls.parents.join(', ')})` };
  return { cls, name };
}

/** Every grammar error of a script, with its line (1-based); none for a good script. */
export function checkMosScript(script: string): GrammarError[] {
  const lines = script.split('\n');
  const errors: GrammarError[] = [];
  const fail = (line: number, message: string) => errors.push({ line: line + 1, message });
  let sawConfbd = false;
  let sawGs = false;
  let sawLt = false;
  let sawDate = false;
  let sawCv = false;
  let openIf = false;
  let previous = '';
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const before = previous;
    previous = line;
    if (line.trim() === '' || line.startsWith('#')) continue;
    if (line !== line.trim()) {
      fail(i, 'leading or trailing blanks');
      continue;
    }
    const [word, ...rest] = line.split(' ');
    const args = rest.join(' ');
    const change = word === 'crn' || word === 'set' || word === 'del';
    if (change) {
      if (!sawConfbd || !sawGs) fail(i, `${word} before confbd+ and gs+`);
      if (!sawLt) fail(i, `${word} before lt all`);
      if (!sawCv) fail(i, `${word} before the CV backup (cvms)`);
      if (!FINDINGS.test(before)) fail(i, `${word} without a comment line naming its finding right above it`);
    }
    switch (word) {
      case 'confbd+':
      case 'gs+':
      case 'confbd-':
      case 'gs-':
      case 'return':
      case 'fi':
        if (args !== '') fail(i, `${word} takes no argument`);
        if (word === 'confbd+') sawConfbd = true;
        if (word === 'gs+') {
          if (!sawConfbd) fail(i, 'gs+ before confbd+');
          sawGs = true;
        }
        if (word === 'fi') {
          if (!openIf) fail(i, 'fi without if');
          openIf = false;
        }
        break;
      case 'lt':
        if (args !== 'all') fail(i, 'lt takes "all" here');
        sawLt = true;
        break;
      case '$date':
        if (line !== DATE_ASSIGNMENT) fail(i, `the date variable is set as ${DATE_ASSIGNMENT}`);
        sawDate = true;
        break;
      case 'cvms':
        if (!CV_NAME.test(args)) fail(i, `"${args}" is not a CV name`);
        if (args.endsWith('$date') && !sawDate) fail(i, '$date used before it is set');
        sawCv = true;
        break;
      case 'if':
        if (!/^\$nodename != [A-Za-z0-9_.-]+$/.test(args)) fail(i, 'if compares $nodename with one node name here');
        if (openIf) fail(i, 'nested if');
        openIf = true;
        break;
      case 'print':
        if (args === '') fail(i, 'print needs a text');
        break;
      case 'crn': {
        const mo = moError(args);
        if ('error' in mo) fail(i, mo.error);
        const seen = new Set<string>();
        let j = i + 1;
        for (; j < lines.length && lines[j] !== 'end'; j += 1) {
          const attrLine = lines[j]!;
          const space = attrLine.indexOf(' ');
          const name = space < 0 ? attrLine : attrLine.slice(0, space);
          const value = space < 0 ? '' : attrLine.slice(space + 1);
          if (!ATTRIBUTE.test(name) || value === '') {
            fail(j, `"${attrLine}" is not an "attribute value" line (crn ${args} is not closed with end?)`);
            continue;
          }
          if (seen.has(name)) fail(j, `${name} given twice`);
          seen.add(name);
          if ('error' in mo) continue;
          const form = mo.cls.attributes[name];
          if (!form) fail(j, `${mo.name} has no attribute ${name}`);
          else {
            const problem = valueError(form, value);
            if (problem) fail(j, `${mo.name}.${name}: ${problem}`);
          }
        }
        if (j >= lines.length) fail(i, `crn ${args} is not closed with end`);
        else if (!('error' in mo)) {
          const missing = mo.cls.mandatory.filter((m) => !seen.has(m));
          if (missing.length > 0) fail(i, `crn ${mo.name} without ${missing.join(', ')}`);
        }
        previous = lines[Math.min(j, lines.length - 1)]!;
        i = j;
        break;
      }
      case 'set': {
        const [filter = '', attribute = '', ...valueParts] = rest;
        const value = valueParts.join(' ');
        const target = filterLdn(filter);
        if ('error' in target) {
          fail(i, target.error);
          break;
        }
        const mo = moError(target.ldn);
        if ('error' in mo) {
          fail(i, mo.error);
          break;
        }
        if (!mo.cls.settable.includes(attribute)) {
          fail(i, `${mo.name}.${attribute || '(nothing)'} is not an attribute set may change`);
          break;
        }
        const problem = valueError(mo.cls.attributes[attribute]!, value);
        if (problem) fail(i, `${mo.name}.${attribute}: ${problem}`);
        break;
      }
      case 'del': {
        const target = filterLdn(args);
        if ('error' in target) fail(i, target.error);
        else {
          const mo = moError(target.ldn);
          if ('error' in mo) fail(i, mo.error);
        }
        break;
      }
      case 'end':
        fail(i, 'end without crn');
        break;
      default:
        fail(i, `"${word}" is not a command these scripts use`);
    }
  }
  if (openIf) fail(lines.length - 1, 'if without fi');
  if (!sawConfbd) fail(0, 'no confbd+');
  if (!sawCv) fail(0, 'no CV backup (cvms)');
  return errors;
}
