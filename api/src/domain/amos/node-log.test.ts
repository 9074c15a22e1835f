import { CPP_LOG, LTE_LOG } from './__tests__/fixtures';
import { parseNodeLog } from './node-log';

const SRC = { archive: 'batch-2024-04-30.zip', file: 'LX0001.log' };

/** Line number (1-based) of the first line of `text` that contains `needle`. */
function lineOf(text: string, needle: string, from = 1): number {
  const lines = text.split('\n');
  for (let i = from - 1; i < lines.length; i += 1) if (lines[i]!.includes(needle)) return i + 1;
  throw new Error(`${needle} not in text`);
}

describe('parseNodeLog on an MSRBS log (header with zone)', () => {
  const r = parseNodeLog(LTE_LOG, SRC);

  it('names the node from its prompt and reads the first header', () => {
    expect(r.node).toBe('LX0001');
    expect(r.unreachable).toBe(false);
    expect(r.header).toEqual({
      at: new Date('2024-04-30T20:40:33Z'),
      local: '2024-04-30 15:40:33',
      zone: '-0500',
      ip: '11.135.248.170',
      version: '24.0c',
      model: 'MSRBS_NODE_MODEL_23.Q4_643.28133.125_0bc9',
      stopfile: '/tmp/2309857',
    });
  });

  it('lists every block with its family and prompt line, the final q left out', () => {
    expect(r.blocks.map((b) => [b.command, b.family])).toEqual([
      ['lt all', 'lt'],
      ['alt', 'alt'],
      ['st cell', 'st'],
      ['st term', 'st'],
      ['hget retsubunit electricalAntennaTilt|operationalState|userLabel|maxTilt|minTilt|iuantAntennaSerialNumber', 'hget'],
      ['get . nbid$|reservedBy', 'get'],
      ['invxrf', 'other'],
    ]);
    expect(r.blocks[1]!.source).toEqual({ ...SRC, line: lineOf(LTE_LOG, 'LX0001> alt') });
  });

  it('has no problems', () => {
    expect(r.problems).toEqual([]);
  });

  it('reads the alarms with tech, cell and source', () => {
    expect(r.alarms.map((a) => [a.severity, a.specificProblem, a.tech, a.cell])).toEqual([
      ['Critical', 'Service Unavailable', '4G', 'LX0001_L800_1'],
      ['Major', 'Resource Configuration Failure', '5G', 'LX0001_N78_2'],
      ['Minor', 'Link Degraded', 'NB-IoT', 'LX0001_NB_1'],
      ['Warning', 'Calendar Clock All NTP Servers Unavailable', 'site', null],
      ['Major', 'SFP Not Present', 'site', null],
    ]);
    const first = r.alarms[0]!;
    expect(first).toMatchObject({
      node: 'LX0001',
      command: 'alt',
      time: '2024-04-30 18:02:11',
      timeBasis: 'UTC',
      at: new Date('2024-04-30T18:02:11Z'),
      mo: 'ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1',
      moClass: 'EUtranCellFDD',
      additionalInfo: 'Cell is disabled: no RF',
      acknowledged: false,
      operator: null,
      source: { ...SRC, line: lineOf(LTE_LOG, '2024-04-30 18:02:11') },
    });
    expect(r.alarms[2]!.additionalInfo).toBe('Carrier (anchor) degraded');
    expect(r.alarms[3]!.mo).toBe('SysM=1,TimeM=1,Ntp=1');
  });

  it('reads st cell and st term with link interfaces and a blank Adm State', () => {
    expect(r.states).toHaveLength(8);
    expect(r.states[1]).toMatchObject({
      proxy: 855,
      admState: 'LOCKED',
      admCode: 0,
      opState: 'DISABLED',
      opCode: 0,
      tech: '4G',
      cell: 'LX0001_L800_2',
      link: null,
    });
    expect(r.states[3]).toMatchObject({ proxy: 101137, tech: 'NB-IoT' });
    expect(r.states.slice(4).map((s) => [s.proxy, s.admState, s.opState, s.link])).toEqual([
      [484, 'UNLOCKED', 'ENABLED', 'X2'],
      [679, null, 'ENABLED', null],
      [1048, 'UNLOCKED', 'DISABLED', 'S1'],
      [1902, 'UNLOCKED', 'ENABLED', 'X2'],
    ]);
  });

  it('derives RET rows from hget, tilt in 0.1° and degrees', () => {
    expect(r.ret).toEqual([
      {
        node: 'LX0001',
        mo: 'AntennaUnitGroup=1,AntennaNearUnit=1,RetSubUnit=1',
        antennaUnitGroup: '1',
        antennaNearUnit: '1',
        retSubUnit: '1',
        electricalAntennaTilt: 30,
        tiltDegrees: 3,
        maxTilt: 140,
        maxTiltDegrees: 14,
        minTilt: 0,
        minTiltDegrees: 0,
        operationalState: 'ENABLED',
        userLabel: 'S1_L800',
        serialNumber: 'CN1018A0012345',
        source: { ...SRC, line: lineOf(LTE_LOG, 'AntennaUnitGroup=1,AntennaNearUnit=1,RetSubUnit=1 30') },
      },
      expect.objectContaining({
        antennaUnitGroup: '2',
        electricalAntennaTilt: 25,
        tiltDegrees: 2.5,
        minTilt: -20,
        minTiltDegrees: -2,
        operationalState: 'DISABLED',
      }),
    ]);
  });

  it('reads get rows with >>> continuations', () => {
    const get = r.attributes.filter((a) => a.command.startsWith('get'));
    expect(get.map((a) => [a.mo, a.attribute, a.value])).toEqual([
      ['ENodeBFunction=1', 'eNBId', '142198'],
      ['Router=LTE,InterfaceIPv4=LTE,AddressIPv4=1', 'reservedBy', '[3] ='],
      ['GNBDUFunction=1', 'gNBId', '1316220'],
    ]);
    expect(get[1]!.declaredItems).toBe(3);
    expect(get[1]!.items.map((i) => i.value)).toEqual(['ENodeBFunction=1', 'GNBCUCPFunction=1', 'Transport=1,SctpEndpoint=LTE']);
  });

  it('keeps lt all as a summary and an unknown command raw', () => {
    expect(r.moTrees).toEqual([expect.objectContaining({ command: 'lt all', mos: 3313 })]);
    expect(r.raw).toEqual([
      {
        node: 'LX0001',
        command: 'invxrf',
        lines: ['', expect.stringMatching(/^240430-15:40:40/), 'Some vendor table the parser does not know', '  with two lines', ''],
        omittedLines: 0,
        source: { ...SRC, line: lineOf(LTE_LOG, 'LX0001> invxrf') },
      },
    ]);
  });
});

describe('parseNodeLog on a CPP log (header without zone)', () => {
  const r = parseNodeLog(CPP_LOG, { file: 'logs/ERBS_41428_KAINARFARM_K.log' });

  it('reads a header without zone as UTC wall time, or at the default offset', () => {
    expect(r.header).toMatchObject({ zone: null, local: '2015-08-19 06:02:11', at: new Date('2015-08-19T06:02:11Z'), model: 'ERBS_NODE_MODEL_H_1_160' });
    const shifted = parseNodeLog(CPP_LOG, { file: 'x.log' }, { defaultUtcOffsetMinutes: 120 });
    expect(shifted.header!.at).toEqual(new Date('2015-08-19T04:02:11Z'));
    expect(shifted.alarms[0]!.at).toEqual(new Date('2015-08-18T20:10:05Z'));
  });

  it('reads both altk tables, the acknowledged one with its operator', () => {
    expect(r.problems).toEqual([]);
    expect(r.alarms.map((a) => [a.severity, a.tech, a.cell, a.acknowledged, a.operator, a.timeBasis])).toEqual([
      ['Major', 'site', null, false, null, 'Local'],
      ['Minor', '2G', '12', false, null, 'Local'],
      ['Critical', '3G', 'S1C1', true, 'opsuser', 'Local'],
    ]);
    expect(r.alarms[0]!.additionalInfo).toBe('Node lost contact (OSS)');
    expect(r.alarms[2]!.additionalInfo).toBe('Iub (primary) link down');
    expect(r.alarms[2]!.source).toEqual({ file: 'logs/ERBS_41428_KAINARFARM_K.log', line: lineOf(CPP_LOG, '2015-05-28 02:39:37') });
  });

  it('reads the alarm log: raises, ceases, non-alarm entries skipped', () => {
    expect(r.alarmLog.map((e) => [e.time, e.type, e.severity, e.ceased, e.specificProblem, e.mo, e.tech, e.additionalInfo])).toEqual([
      ['2015-08-01 02:49:43', 'AL', 'Major', false, 'Link Failure', 'NodeBFunction=1,Iub=1', 'site', 'Iub link down'],
      ['2015-08-01 02:49:53', 'AL', null, true, 'Link Failure', 'NodeBFunction=1,Iub=1', 'site', 'Iub link down'],
      ['2015-08-02 11:00:00', 'AL', 'Critical', false, 'Service Unavailable', 'ENodeBFunction=1,EUtranCellTDD=KAINAR_1', '4G', 'cell down'],
    ]);
    expect(r.alarmLog[0]!.at).toEqual(new Date('2015-08-01T02:49:43Z'));
  });

  it('reads cvls entries and its summary', () => {
    expect(r.cvs).toHaveLength(1);
    const cv = r.cvs[0]!;
    expect(cv.summary['Executing']).toBe('Au_CXP102051%22_R41A02_150819_0100        CXP102051/22_R41A02   L15B (R41A02)');
    expect(cv.summary['Rollback status']).toBe('Rollback is on');
    expect(cv.entries.map((e) => [e.id, e.name, e.created])).toEqual([
      [1, 'SU_CXP102051%22_R41A02_150509_0843', '2015-05-09 08:43'],
      [2, 'Au_CXP102051%22_R41A02_150819_0100', '2015-08-19 01:00'],
    ]);
  });
});

describe('parseNodeLog on awkward input', () => {
  it('reads CRLF logs with <ip>: prefixes the same as plain ones', () => {
    const prefixed = LTE_LOG.split('\n')
      .map((l) => `11.135.248.170: ${l}`)
      .join('\r\n');
    const plain = parseNodeLog(LTE_LOG, SRC);
    const r = parseNodeLog(prefixed, SRC);
    expect(r.problems).toEqual([]);
    expect(r.node).toBe('LX0001');
    expect(r.alarms).toEqual(plain.alarms);
    expect(r.states).toEqual(plain.states);
    expect(r.ret).toEqual(plain.ret);
    expect(r.attributes).toEqual(plain.attributes);
  });

  it('reports an unreachable node, not a parse failure', () => {
    const log = ['', 'Checking ip contact...Not OK', '', 'Unable to connect to LX0009 (10.1.1.9)', ''].join('\n');
    const r = parseNodeLog(log, { file: 'LX0009.log' });
    expect(r).toMatchObject({ node: 'LX0009', unreachable: true, unreachableReason: 'Checking ip contact...Not OK', problems: [], blocks: [], alarms: [] });
  });

  it('skips binary junk with a problem and still reads the rest', () => {
    const lines = LTE_LOG.split('\n');
    const at = lines.findIndex((l) => l.startsWith('2024-04-29 07:15:00'));
    lines.splice(at, 0, '\u0000\u0001\u0002PK\u0003\u0004\ufffd\ufffd', '\u001f\u008b\u0008\u0000\u0000\u0000');
    const r = parseNodeLog(lines.join('\n'), SRC);
    expect(r.alarms).toHaveLength(5);
    expect(r.problems).toEqual([{ kind: 'binary', reason: 'binary data: 2 lines skipped', command: 'alt', source: { ...SRC, line: at + 1 } }]);
  });

  it('survives a whole file of junk', () => {
    const junk = Array.from({ length: 2000 }, (_, i) => String.fromCharCode(i % 32, 0xfffd, (i * 7) % 256)).join('');
    const r = parseNodeLog(junk, { file: 'broken.log' });
    expect(r.node).toBe('broken');
    expect(r.problems.map((p) => p.kind)).toEqual(['binary']);
  });

  it('reports a block cut off by the end of the file, keeping the rows read', () => {
    const cut = LTE_LOG.split('\n');
    const end = cut.findIndex((l) => l.startsWith('2024-04-28'));
    const r = parseNodeLog(cut.slice(0, end + 1).join('\n'), SRC);
    expect(r.alarms).toHaveLength(3);
    expect(r.problems).toEqual([
      {
        kind: 'truncated',
        reason: `alarm table without its >>> Total footer: the log ends after line ${end + 1}`,
        command: 'alt',
        source: { ...SRC, line: lineOf(LTE_LOG, 'LX0001> alt') },
      },
    ]);
  });

  it('reports a block cut off by the next prompt', () => {
    const log = [
      'LX0001> st cell',
      '',
      '240430-15:40:36 11.135.248.170 24.0c M stopfile=/tmp/1',
      'Proxy  Adm State     Op. State     MO',
      '   854  1 (UNLOCKED)  1 (ENABLED)   EUtranCellFDD=A',
      'LX0001> alt',
      '',
    ].join('\n');
    const r = parseNodeLog(log, { file: 'LX0001.log' });
    expect(r.states).toHaveLength(1);
    expect(r.problems.map((p) => [p.kind, p.command, p.source.line, p.reason])).toEqual([
      ['truncated', 'st cell', 1, 'state table without its Total: N MOs footer: the next prompt follows line 5'],
      ['truncated', 'alt', 6, 'no alarm table: the log ends after line 6'],
    ]);
  });

  it('notes a prompt of another node and keeps that block under its own node', () => {
    const log = [
      'LX0001> lt all',
      '',
      'LX0002> alt',
      '',
      '240430-15:40:35 1.2.3.4 24.0c M stopfile=/tmp/1',
      'Date & Time (UTC)   S Specific Problem                    MO (Cause/AdditionalInfo)',
      '>>> Total: 0 Alarms (0 Critical, 0 Major)',
    ].join('\n');
    const r = parseNodeLog(log, { file: 'LX0001.log' });
    expect(r.node).toBe('LX0001');
    expect(r.blocks.map((b) => b.node)).toEqual(['LX0001', 'LX0002']);
    expect(r.problems).toEqual([
      expect.objectContaining({ kind: 'foreign-node', reason: 'prompt of node LX0002 in the log of LX0001', source: { file: 'LX0001.log', line: 3 } }),
    ]);
  });

  it('caps raw blocks at rawLineLimit', () => {
    const log = ['LX0001> kget', ...Array.from({ length: 30 }, (_, i) => `line ${i}`)].join('\n');
    const r = parseNodeLog(log, { file: 'LX0001.log' }, { rawLineLimit: 10 });
    expect(r.raw[0]!.lines).toHaveLength(10);
    expect(r.raw[0]!.omittedLines).toBe(20);
  });

  it('strips terminal colour codes', () => {
    const log = [
      '\u001b[1;32mLX0001> st cell\u001b[0m',
      'Proxy  Adm State     Op. State     MO',
      '   854  1 (UNLOCKED)  \u001b[1;31m0 (DISABLED)\u001b[0m  EUtranCellFDD=A',
      'Total: 1 MOs',
    ].join('\n');
    const r = parseNodeLog(log, { file: 'LX0001.log' });
    expect(r.problems).toEqual([]);
    expect(r.states[0]).toMatchObject({ opState: 'DISABLED', mo: 'EUtranCellFDD=A' });
  });

  it('parses a large log, and a 2 MB line, completely (speed is measured in bench, not here)', () => {
    const body = LTE_LOG.split('\n').slice(4).join('\n');
    const big = Array.from({ length: 400 }, () => body).join('\n'); // ~37,000 lines, ~3.5 MB
    const long = `LX0001> alt\n${'x'.repeat(2_000_000)}\n`; // one 2 MB line
    const r = parseNodeLog(big + long, SRC);
    expect(r.alarms).toHaveLength(2000);
    expect(r.states).toHaveLength(3200);
  });
});
