/*
 * The parser over a whole generated log set (the demo generator, scaled up as the parse-rate bench does):
 * every row the generator wrote is read back, counted two ways — against the generator's own summary,
 * and against a naive line count of each table — so an optimisation that drops or invents rows fails
 * here, whatever the speed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readArchiveFiles } from '../../files/zip';
import { type DemoLogSummary, MOBATCH_RESULT_FILE, syntheticLogNodes, writeLogArchive } from '../../demo/logs';
import { parseMobatchResult, parseNodeLog } from './index';
import { type MobatchResult, type NodeLogResult } from './types';

const PROMPT = /^[A-Za-z0-9_.-]+> ?(\S*)/;
const IP_PREFIX = /^(?:\d{1,3}\.){3}\d{1,3}: ?/;
const GET_ROW = /^[A-Za-z]\w*=\S*\s+\S+/;
const ALARM_ROW = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [CMmw] /;
const STATE_ROW = /^\s*\d+\s+\d+ \([A-Z_]+\)/;

interface Naive {
  attributes: number;
  alarms: number;
  states: number;
}

/** Table rows of a log counted line by line with plain patterns, independently of the parser. */
function naiveCounts(text: string): Naive {
  const counts: Naive = { attributes: 0, alarms: 0, states: 0 };
  let verb = '';
  let hgetColumns = 0;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '').replace(IP_PREFIX, '');
    const prompt = PROMPT.exec(line);
    if (prompt) {
      verb = prompt[1]!;
      hgetColumns = 0;
      continue;
    }
    if (verb === 'get' && GET_ROW.test(line)) counts.attributes += 1;
    else if (verb === 'hget') {
      if (line.startsWith('MO ')) hgetColumns = line.trim().split(/\s+/).length - 1;
      else if (GET_ROW.test(line)) counts.attributes += hgetColumns;
    } else if (verb === 'alt' && ALARM_ROW.test(line)) counts.alarms += 1;
    else if (verb === 'st' && STATE_ROW.test(line)) counts.states += 1;
  }
  return counts;
}

interface Parsed {
  logs: Map<string, { text: string; result: NodeLogResult }>;
  mobatch: MobatchResult;
  summary: DemoLogSummary;
}

let parsed: Parsed;
let temp: string;

beforeAll(async () => {
  temp = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-amos-generated-'));
  const file = path.join(temp, 'logs.zip');
  const summary = await writeLogArchive(file, syntheticLogNodes(24), {
    seed: 7,
    now: new Date('2025-03-10T09:30:00Z'),
    scale: { alarms: 12, termPoints: 9, relations: 5 },
  });
  const logs = new Map<string, { text: string; result: NodeLogResult }>();
  let mobatch: MobatchResult | null = null;
  for await (const entry of readArchiveFiles(file)) {
    const text = entry.data!.toString('utf8');
    if (entry.name === MOBATCH_RESULT_FILE) mobatch = parseMobatchResult(text, { archive: 'logs.zip', file: entry.name });
    else logs.set(entry.name, { text, result: parseNodeLog(text, { archive: 'logs.zip', file: entry.name }) });
  }
  parsed = { logs, mobatch: mobatch!, summary };
});

afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

describe('a generated log set', () => {
  it('is read without a problem, CRLF and <ip>: prefixed files included', () => {
    const { logs, mobatch, summary } = parsed;
    expect(logs.size).toBe(summary.logs);
    expect(summary.crlfFiles.length).toBeGreaterThan(0);
    expect(summary.ipPrefixedFile).not.toBeNull();
    for (const [file, { result }] of logs) expect([file, result.problems]).toEqual([file, []]);
    expect(mobatch.problems).toEqual([]);
    expect(mobatch.entries).toHaveLength(summary.logs);
  });

  it('reads every table row the log holds (counted line by line apart from the parser)', () => {
    let attributes = 0;
    for (const [file, { text, result }] of parsed.logs) {
      const naive = naiveCounts(text);
      expect([file, result.attributes.length, result.alarms.length, result.states.length]).toEqual([file, naive.attributes, naive.alarms, naive.states]);
      attributes += naive.attributes;
    }
    // The scale makes the tables long enough to matter.
    expect(attributes).toBeGreaterThan(2000);
  });

  it('finds the alarms, locked and disabled cells and term points the generator wrote', () => {
    const { logs, summary } = parsed;
    const counts = { unacknowledged: { C: 0, M: 0, m: 0, w: 0 }, acknowledged: { C: 0, M: 0, m: 0, w: 0 } };
    const locked: string[] = [];
    const disabled: string[] = [];
    const disabledTerms = new Set<string>(); // `st term` and `st mme` both print the MME term points
    for (const { result } of logs.values()) {
      for (const a of result.alarms) counts[a.acknowledged ? 'acknowledged' : 'unacknowledged'][a.severityCode] += 1;
      for (const s of result.states) {
        const key = `${result.node} ${s.mo}`;
        if (s.link !== null) {
          if (s.opState === 'DISABLED') disabledTerms.add(key);
        } else if (s.admState === 'LOCKED') locked.push(key);
        else if (s.opState === 'DISABLED') disabled.push(key);
      }
    }
    expect(counts).toEqual(summary.alarms);
    expect(locked.sort()).toEqual([...summary.lockedCells].sort());
    expect(disabled.sort()).toEqual([...summary.disabledCells].sort());
    expect([...disabledTerms].sort()).toEqual([...summary.disabledTermPoints].sort());
  });

  it('says which node was not reached, and reads RET rows of every RetSubUnit', () => {
    const { logs, summary } = parsed;
    const unreachable = [...logs.values()].filter(({ result }) => result.unreachable).map(({ result }) => result.node);
    expect(unreachable).toEqual([summary.unreachable]);
    for (const { result } of logs.values()) {
      const subUnits = new Set(result.attributes.filter((a) => a.moClass === 'RetSubUnit').map((a) => a.mo));
      expect(result.ret.map((r) => r.mo)).toEqual([...subUnits]);
      for (const ret of result.ret) expect(ret.tiltDegrees).toBe(ret.electricalAntennaTilt === null ? null : ret.electricalAntennaTilt / 10);
    }
  });
});
