import { HEADER } from './__tests__/helpers';
import { parseNodeLog } from './node-log';
import { csvFields, unquoteCsv } from './promptless';
import { decodeLogBytes } from './text';

/*
 * Issue 43: real files that none of the first fixtures came from. Each fixture is written for these tests
 * in the layout of real moshell/AMOS output (prompts, header lines, rules, footers); names are invented.
 * Every case runs on LF and CRLF files.
 */

const EOLS = [
  ['LF', '\n'],
  ['CRLF', '\r\n'],
] as const;

const ALT_OK = [
  '====================================================================================================================',
  'Date & Time (UTC)   S Specific Problem                    MO (Cause/AdditionalInfo)',
  '====================================================================================================================',
  '2024-04-30 18:02:11 M Resource Configuration Failure      ENodeBFunction=1,EUtranCellFDD=TLV001_1 (config failed)',
  '>>> Total: 1 Alarms (0 Critical, 1 Major)',
];

describe('sub-shell prompts inside command output (variant 2)', () => {
  const log = [
    'TEL_AVIV> ue print -admitted',
    '',
    HEADER,
    '$ ue print -admitted',
    'coli>/fruacc/lhsh 000100 /lrat/ue print -admitted',
    'coli> /fruacc/lhsh BXP_2049 ue print -admitted',
    'CellId  #UE:s  #Bearers',
    '1       12     20',
    'coli>',
    '',
    'TEL_AVIV> lh ru fui get vswr',
    '',
    HEADER,
    'lhsh> fui get vswr',
    'VSWR (antenna 1): 1.21',
    'sh> exit',
    '',
    'TEL_AVIV> alt',
    '',
    HEADER,
    ...ALT_OK,
    '',
    'TEL_AVIV> q',
  ];

  it.each(EOLS)('%s: coli>, lhsh> and sh> belong to the command that opened them; only the node prompts open blocks', (_name, eol) => {
    const r = parseNodeLog(log.join(eol), { file: 'tel_aviv.log' });
    expect(r.problems).toEqual([]);
    expect(r.blocks.map((b) => [b.node, b.command, b.family])).toEqual([
      ['TEL_AVIV', 'ue print -admitted', 'other'],
      ['TEL_AVIV', 'lh ru fui get vswr', 'other'],
      ['TEL_AVIV', 'alt', 'alt'],
    ]);
    expect(r.raw[0]!.lines).toContain('coli> /fruacc/lhsh BXP_2049 ue print -admitted');
    expect(r.raw[1]!.lines).toContain('sh> exit');
    expect(r.alarms).toHaveLength(1);
  });

  it('still reports a real foreign node after a sub-shell', () => {
    const r = parseNodeLog([...log.slice(0, 9), 'LX0002> alt', '', HEADER, ...ALT_OK].join('\n'), { file: 'tel_aviv.log' });
    expect(r.problems.map((p) => [p.kind, p.reason])).toEqual([['foreign-node', 'prompt of node LX0002 in the log of TEL_AVIV']]);
  });
});

describe('node identity is case-insensitive (variant 5)', () => {
  it.each(EOLS)('%s: TEL_AVIV> and tel_aviv> prompts in tel_aviv.log are one node', (_name, eol) => {
    const log = ['TEL_AVIV> alt', '', HEADER, ...ALT_OK, '', 'tel_aviv> st cell', '', HEADER, 'Proxy  Adm State     Op. State     MO', 'Total: 0 MOs', ''];
    const r = parseNodeLog(log.join(eol), { file: 'tel_aviv.log' });
    expect(r.node).toBe('TEL_AVIV');
    expect(r.problems).toEqual([]);
    expect(r.blocks.map((b) => b.node.toLowerCase())).toEqual(['tel_aviv', 'tel_aviv']);
  });
});

// What an engineer pastes from a terminal after `hget retsubunit …` (the prompt line not copied).
const PASTED_HGET = [
  'Connected to 10.44.1.20 (SubNetwork=ONRM_ROOT_MO,SubNetwork=RAN_TLV,MeContext=KFAR_SABA,ManagedElement=1)',
  '=================================================================================================================',
  'MO                                                electricalAntennaTilt operationalState userLabel maxTilt minTilt',
  '=================================================================================================================',
  'AntennaUnitGroup=1,AntennaNearUnit=1,RetSubUnit=1 30                    1 (ENABLED)      S1_L800   140     0',
  'AntennaUnitGroup=2,AntennaNearUnit=1,RetSubUnit=1 25                    0 (DISABLED)     S2_L800   140     -20',
  '=================================================================================================================',
  'Total: 2 MOs',
];

describe("one command's output saved without its prompt (variant 3)", () => {
  it.each(EOLS)('%s: a pasted hget is read as hget of the node its Connected to line names', (_name, eol) => {
    const r = parseNodeLog(PASTED_HGET.join(eol), { file: 'ret_check.log' });
    expect(r.problems).toEqual([]);
    expect(r.node).toBe('KFAR_SABA');
    expect(r.blocks.map((b) => [b.node, b.family, b.command])).toEqual([
      ['KFAR_SABA', 'hget', 'hget electricalAntennaTilt|operationalState|userLabel|maxTilt|minTilt'],
    ]);
    expect(r.ret.map((t) => [t.mo, t.electricalAntennaTilt, t.operationalState, t.userLabel, t.minTilt, t.source.line])).toEqual([
      ['AntennaUnitGroup=1,AntennaNearUnit=1,RetSubUnit=1', 30, 'ENABLED', 'S1_L800', 0, 5],
      ['AntennaUnitGroup=2,AntennaNearUnit=1,RetSubUnit=1', 25, 'DISABLED', 'S2_L800', -20, 6],
    ]);
  });

  it('takes the node from the file name when the output names none', () => {
    const r = parseNodeLog(PASTED_HGET.slice(1).join('\n'), { file: 'logs/tel_aviv.log' });
    expect(r.node).toBe('tel_aviv');
    expect(r.ret).toHaveLength(2);
  });

  it('takes the node from a .txt file name as from a .log one (pasted output is usually saved as .txt)', () => {
    const r = parseNodeLog(PASTED_HGET.slice(1).join('\r\n'), { file: 'pasted\\KFAR_SABA.TXT' });
    expect(r.node).toBe('KFAR_SABA');
    expect(r.blocks.map((b) => b.node)).toEqual(['KFAR_SABA']);
    // A site file saved next to the logs has neither prompt nor table: no blocks, so the parse does not take it for a log.
    expect(parseNodeLog('LX0001\r\nKFAR_SABA\r\n', { file: 'sites.txt' }).blocks).toEqual([]);
  });

  it.each(EOLS)('%s: every line wrapped in CSV quotes, as one field', (_name, eol) => {
    const quoted = PASTED_HGET.map((l) => `"${l.replace(/"/g, '""')}"`);
    const r = parseNodeLog(quoted.join(eol), { file: 'ret_check.log' });
    expect(r.problems).toEqual([]);
    expect(r.ret.map((t) => [t.userLabel, t.electricalAntennaTilt])).toEqual([
      ['S1_L800', 30],
      ['S2_L800', 25],
    ]);
  });

  it('rows saved as CSV fields are laid out as columns again; a row whose quote does not close is a problem, not dropped', () => {
    const csv = [
      '"Connected to 10.44.1.20 (SubNetwork=ONRM_ROOT_MO,MeContext=KFAR_SABA,ManagedElement=1)"',
      '"MO","electricalAntennaTilt","userLabel"',
      '"AntennaUnitGroup=1,AntennaNearUnit=1,RetSubUnit=1","30","S1 ""main"""',
      '"AntennaUnitGroup=2,AntennaNearUnit=1,RetSubUnit=1","25","S2',
      '"Total: 2 MOs"',
    ];
    const r = parseNodeLog(csv.join('\r\n'), { file: 'ret.log' });
    expect(r.node).toBe('KFAR_SABA');
    expect(r.ret.map((t) => [t.mo, t.electricalAntennaTilt, t.userLabel])).toEqual([['AntennaUnitGroup=1,AntennaNearUnit=1,RetSubUnit=1', 30, 'S1 "main"']]);
    expect(r.problems.map((p) => [p.kind, p.source.line])).toEqual([
      ['unparsed-line', 4],
      ['count-mismatch', 5],
    ]);
    expect(r.problems.find((p) => p.source.line === 4)!.reason).toMatch(/^CSV quote not closed/);
  });

  it('a pasted st cell and a pasted lt all are read as such', () => {
    const st = [
      'Proxy  Adm State     Op. State     MO',
      '==================================================================',
      '   854  1 (UNLOCKED)  1 (ENABLED)   ENodeBFunction=1,EUtranCellFDD=KFAR_SABA_1',
      '   855  0 (LOCKED)    0 (DISABLED)  ENodeBFunction=1,EUtranCellFDD=KFAR_SABA_2',
      'Total: 2 MOs',
    ];
    const r = parseNodeLog(st.join('\n'), { file: 'KFAR_SABA.log' });
    expect(r.problems).toEqual([]);
    expect(r.states.map((s) => [s.cell, s.admState, s.opState])).toEqual([
      ['KFAR_SABA_1', 'UNLOCKED', 'ENABLED'],
      ['KFAR_SABA_2', 'LOCKED', 'DISABLED'],
    ]);
    const lt = parseNodeLog(['Checking MOM version...', 'Fetching MO tree.....Done.', 'Last MO: 3312. Loaded 3312 MOs. Total: 3313 MOs.'].join('\r\n'), {
      file: 'KFAR_SABA.log',
    });
    expect(lt.moTrees.map((t) => [t.node, t.command, t.mos])).toEqual([['KFAR_SABA', 'lt all', 3313]]);
  });

  it('rows of a pasted table that cannot be read are problems, with their lines', () => {
    const broken = [...PASTED_HGET.slice(0, 5), '  garbled row without an MO', ...PASTED_HGET.slice(5, 7), 'Total: 3 MOs'];
    const r = parseNodeLog(broken.join('\n'), { file: 'ret.log' });
    expect(r.ret).toHaveLength(2);
    expect(r.problems.map((p) => [p.kind, p.source.line])).toEqual([
      ['unparsed-line', 6],
      ['count-mismatch', 9],
    ]);
    expect(r.blocks[0]!.incomplete).toMatch(/^line 6: not an hget row/);
  });

  it('a file with neither prompt nor table stays without blocks', () => {
    const r = parseNodeLog('some notes\r\nabout the site\r\n', { file: 'notes.log' });
    expect(r.blocks).toEqual([]);
  });
});

describe('csvFields / unquoteCsv', () => {
  it('reads quoted and bare fields, doubled quotes, and refuses an open quote', () => {
    expect(csvFields('"a,b",c,"d ""e"""')).toEqual(['a,b', 'c', 'd "e"']);
    expect(csvFields('"open')).toBeNull();
    expect(csvFields('"a" x')).toBeNull();
  });

  it('leaves unquoted files as they are', () => {
    expect(unquoteCsv(['MO  a', null, 'X=1  2'])).toEqual({ lines: ['MO  a', null, 'X=1  2'], unreadable: [] });
  });
});

describe('tables cut short mark their block incomplete (never lose what was known)', () => {
  const cut = [
    'TEL_AVIV> alt',
    '',
    HEADER,
    'UNACKNOWLEDGED ALARMS: 3',
    ...ALT_OK.slice(0, 4),
    '2024-04-30 18:03:00 C Service Unavailable                 ENodeBFunction=1,EUtranCellFDD=TLV001_2 (no RF)',
  ];

  it.each(EOLS)('%s: a heading that says 3 with 2 rows and no footer', (_name, eol) => {
    const r = parseNodeLog(cut.join(eol), { file: 'tel_aviv.log' });
    expect(r.alarms).toHaveLength(2);
    expect(r.blocks[0]!.incomplete).toMatch(/^line \d+: /);
    expect(r.problems.map((p) => p.kind).sort()).toEqual(['count-mismatch', 'truncated']);
  });

  it('a footer that disagrees with the rows', () => {
    const log = ['TEL_AVIV> alt', '', HEADER, ...ALT_OK.slice(0, 4), '>>> Total: 4 Alarms (1 Critical, 3 Major)'];
    expect(parseNodeLog(log.join('\n'), { file: 'tel_aviv.log' }).blocks[0]!.incomplete).toMatch(/^line 8: footer says 4/);
  });

  it('binary junk inside the table; the other blocks stay complete', () => {
    const log = [
      'TEL_AVIV> alt',
      '',
      HEADER,
      ...ALT_OK.slice(0, 4),
      '\u0000\u0001\u0002\u0003',
      ALT_OK[4]!,
      '',
      'TEL_AVIV> st cell',
      '',
      HEADER,
      'Total: 0 MOs',
    ];
    const r = parseNodeLog(log.join('\r\n'), { file: 'tel_aviv.log' });
    expect(r.blocks.map((b) => [b.family, b.incomplete])).toEqual([
      ['alt', 'line 8: binary data: 1 line skipped'],
      ['st', null],
    ]);
  });

  it('an st table cut short', () => {
    const log = [
      'TEL_AVIV> st cell',
      '',
      HEADER,
      'Proxy  Adm State     Op. State     MO',
      '   854  1 (UNLOCKED)  1 (ENABLED)   ENodeBFunction=1,EUtranCellFDD=TLV001_1',
    ];
    expect(parseNodeLog(log.join('\n'), { file: 'tel_aviv.log' }).blocks[0]!.incomplete).toMatch(/^line 1: .*Total/);
  });

  it('a complete log has no incomplete block', () => {
    const r = parseNodeLog(['TEL_AVIV> alt', '', HEADER, ...ALT_OK].join('\n'), { file: 'tel_aviv.log' });
    expect(r.blocks[0]!.incomplete).toBeNull();
  });
});

describe('decodeLogBytes: a log saved as UTF-16 is read, not lost as binary junk', () => {
  const log = ['TEL_AVIV> alt', '', HEADER, ...ALT_OK, ''].join('\r\n');
  const utf16le = Buffer.from(log, 'utf16le');
  const utf16be = Buffer.from(utf16le).swap16();

  it.each([
    ['UTF-16LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), utf16le])],
    ['UTF-16LE without BOM', utf16le],
    ['UTF-16BE with BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be])],
    ['UTF-8', Buffer.from(log, 'utf8')],
  ])('%s', (_name, bytes) => {
    const r = parseNodeLog(decodeLogBytes(bytes), { file: 'tel_aviv.log' });
    expect(r.problems).toEqual([]);
    expect(r.alarms).toHaveLength(1);
    expect(r.blocks[0]!.incomplete).toBeNull();
  });
});
