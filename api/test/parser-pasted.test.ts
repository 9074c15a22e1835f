import type { ParseReport, ParseResponse, UnusableLogsResponse } from 'contracts';
import { INGEST_MESSAGES } from '../src/monitoring/ingest';
import { TEST_DATABASES } from './support/databases';
import { parsingApp } from './support/parsing';
import { BINARY_JUNK } from './fixtures/monitoring/archives';
import { LTE_CELL, lteNodeLog, mobatchResult } from './fixtures/monitoring/logs';

/*
 * Issue 43, variant 3 in an archive: one command's output pasted into a file is usually saved as `.txt`.
 * Such a file is read as a log when its content is AMOS/moshell output; a `.txt` that is not (a site
 * file, notes) and any other entry are reported as not read, with the reason, never dropped silently.
 */

const CONNECTED = (node: string) => `Connected to 10.10.1.2 (SubNetwork=ONRM_ROOT_MO,SubNetwork=RAN,MeContext=${node},ManagedElement=1)`;

/** `st cell` as a terminal printed it, copied without its prompt line (CRLF: saved on Windows). */
function pastedStCell(node: string): string {
  return [
    CONNECTED(node),
    '',
    'Proxy  Adm State     Op. State     MO',
    '===================================================================================',
    `   854  1 (UNLOCKED)  1 (ENABLED)   ${LTE_CELL(node, 1)}`,
    `   855  0 (LOCKED)    0 (DISABLED)  ${LTE_CELL(node, 2)}`,
    '===================================================================================',
    'Total: 2 MOs',
    '',
  ].join('\r\n');
}

/** `hget retsubunit …` pasted without the prompt nor any line naming the node: the file name does. */
const PASTED_RET = [
  '=================================================================================================================',
  'MO                                                electricalAntennaTilt operationalState userLabel maxTilt minTilt',
  '=================================================================================================================',
  'AntennaUnitGroup=1,AntennaNearUnit=1,RetSubUnit=1 30                    1 (ENABLED)      S1_L800   140     0',
  'AntennaUnitGroup=2,AntennaNearUnit=1,RetSubUnit=1 25                    0 (DISABLED)     S2_L800   140     -20',
  '=================================================================================================================',
  'Total: 2 MOs',
  '',
].join('\n');

describe.each(TEST_DATABASES)('pasted AMOS output saved as .txt on $name', (kind) => {
  const parsing = parsingApp(kind, ['LX0001', 'LX0002', 'LX0003']);
  const { get } = parsing;
  const parseArchive = (entries: Record<string, string | Buffer>) => parsing.parse(entries);

  it('reads a .txt holding AMOS output as its node log, and reports every other entry with why it was not read', async () => {
    const res = await parseArchive({
      'logs/LX0001.log': lteNodeLog('LX0001'),
      'logs/pasted/st_cell_LX0002.txt': pastedStCell('LX0002'),
      'logs/LX0003.TXT': PASTED_RET,
      'logs/sites.txt': 'LX0001\nLX0002\nLX0003\n',
      'logs/cells.csv': 'node;cell\nLX0001;LX0001_1\n',
      'logs/mobatch_result.txt': mobatchResult([
        ['OK', 'LX0001'],
        ['OK', 'LX0002'],
        ['OK', 'LX0003'],
      ]),
    });
    expect(res.statusCode).toBe(200);
    const parsed = res.json<ParseResponse>();
    expect(parsed.counts).toMatchObject({ files: 6, parsed: 3, failed: 0, problems: 2 });

    const report = (await get(`/api/Parser/GetParseReport?id=${parsed.parseId}`)).json<ParseReport>();
    const byFile = new Map(report.files.map((f) => [f.file, f]));
    // The node of the pasted st is the one its Connected to line names, not the file's.
    expect(byFile.get('logs/pasted/st_cell_LX0002.txt')).toMatchObject({ node: 'LX0002', siteId: 'LX0002', outcome: 'parsed', problemCount: 0 });
    expect(byFile.get('logs/LX0003.TXT')).toMatchObject({ node: 'LX0003', siteId: 'LX0003', outcome: 'parsed', problemCount: 0 });
    expect(byFile.get('logs/sites.txt')).toMatchObject({
      node: null,
      outcome: 'ignored',
      problemCount: 1,
      problems: [{ line: 1, reason: INGEST_MESSAGES.notAmosText, command: null }],
    });
    expect(byFile.get('logs/cells.csv')).toMatchObject({
      node: null,
      outcome: 'ignored',
      problems: [{ line: 1, reason: INGEST_MESSAGES.notRead, command: null }],
    });
    // mobatch_result.txt keeps its own meaning: the run's result lines, no problem.
    expect(byFile.get('logs/mobatch_result.txt')).toMatchObject({ outcome: 'ignored', problemCount: 0 });

    const states = await parsing.database.db
      .selectFrom('monitoring_states')
      .select(['cell', 'adm_state', 'op_state', 'file', 'line'])
      .where('node_name', '=', 'LX0002')
      .orderBy('cell')
      .execute();
    expect(states).toEqual([
      { cell: 'LX0002_1', adm_state: 'UNLOCKED', op_state: 'ENABLED', file: 'logs/pasted/st_cell_LX0002.txt', line: 5 },
      { cell: 'LX0002_2', adm_state: 'LOCKED', op_state: 'DISABLED', file: 'logs/pasted/st_cell_LX0002.txt', line: 6 },
    ]);
    const rets = await parsing.database.db
      .selectFrom('monitoring_ret')
      .select(['user_label', 'electrical_tilt'])
      .where('node_name', '=', 'LX0003')
      .orderBy('user_label')
      .execute();
    expect(rets).toEqual([
      { user_label: 'S1_L800', electrical_tilt: 30 },
      { user_label: 'S2_L800', electrical_tilt: 25 },
    ]);
    // No node is made of a file that is not a log.
    expect(await parsing.database.db.selectFrom('monitoring_nodes').select('node_name').orderBy('node_name').execute()).toEqual([
      { node_name: 'LX0001' },
      { node_name: 'LX0002' },
      { node_name: 'LX0003' },
    ]);
  });

  it('an archive whose only log is junk and whose .txt is not AMOS output answers 422 listing both', async () => {
    const res = await parseArchive({ 'LX0001.log': BINARY_JUNK, 'notes.txt': 'Run on Tuesday\r\nall sites reached\r\n' });
    expect(res.statusCode).toBe(422);
    const body = res.json<UnusableLogsResponse>();
    expect(body.files.map((f) => [f.file, f.outcome, f.problems[0]?.reason])).toEqual([
      ['LX0001.log', 'failed', expect.stringMatching(/binary/)],
      ['notes.txt', 'ignored', INGEST_MESSAGES.notAmosText],
    ]);
  });

  it('an archive of .txt files none of which is AMOS output holds no logs', async () => {
    const res = await parseArchive({ 'sites.txt': 'LX0001\n', 'readme.txt': 'hello' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(INGEST_MESSAGES.noLogs('logs.zip'));
  });
});
