import { sql } from 'kysely';
import { BatchInsert } from '../src/db/batch-insert';
import { listFrom, type ListSource } from '../src/db/list';
import { runInOperator, runUnscoped } from '../src/db/operator-scope';
import { trigramPhrase, trigramTerms } from '../src/db/trigrams';
import { ALARM_LIST, listAlarms } from '../src/monitoring/queries';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

/*
 * Issue 48: on SQLite the alarm list narrows contains-filters on site, node and alarm name through an
 * FTS5 trigram index (migration 0021, api/src/db/trigrams.ts). Its rows must be exactly those of the
 * LIKE alone: ASCII case folded, LIKE's wildcards matched as text, other letters as they are.
 */
const ONE = 1;
const TWO = 2;

/** Node names with what a filter must treat as text: LIKE's wildcards, its escape, quotes, letters beyond ASCII. */
const NAMES = ['LIS0001', 'lis0002', 'OPO_03', 'opo%04', 'FAR\\05', 'Say "hi"06', "O'Neil07", 'Évora08', 'évora09', '\u212Aelvin10'];
const PROBLEMS = ['Link Failure', 'Heartbeat Failure', 'TN LINK Degraded', 'Sync 100% lost', 'Gps_Sync Fault'];
/** Far more rows than a page needs a hundred times, so both ways of choosing a page are taken. */
const ROWS = 1200;

const alarmRow = (i: number) => {
  const name = NAMES[i % NAMES.length]!;
  return {
    node_name: `${name}_L${i % 3}`,
    parse_id: 1,
    mo: `Cell=${i}`,
    tech: '4G',
    // Some alarms name no site: a filter on the site never finds them.
    site_id: i % 11 === 0 ? null : name,
    alarm_at: `2024-0${1 + (i % 9)}-1${i % 10}T0${i % 10}:00:00.000Z`,
    alarm_time: '2024-01-01 00:00:00',
    time_basis: 'UTC',
    severity: ['Critical', 'Major', 'Minor'][i % 3]!,
    specific_problem: PROBLEMS[Math.floor(i / NAMES.length) % PROBLEMS.length]!,
    info: '',
    node_acknowledged: 0,
    alarm_key: `${name}|Cell=${i}`,
    archive: 'logs.zip',
    file: 'a.log',
    line: i,
  };
};
type AlarmRow = ReturnType<typeof alarmRow>;

/** LIKE's "contains" on SQLite, in JavaScript: ASCII letters in any case, everything else as it is. */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
const contains = (text: string | null, needle: string) => text !== null && asciiLower(text).includes(asciiLower(needle.toLowerCase()));

/** The same list without the trigram index: the LIKE alone, as before migration 0021. */
const WITHOUT_INDEX: ListSource = { ...ALARM_LIST, keyed: { ...ALARM_LIST.keyed!, trigrams: undefined } };

const FILTERS: Array<Record<string, string>> = [
  { nodeName: 'lis' },
  { nodeName: 'LIS0', AlarmName: 'link' },
  { nodeName: 'opo_' },
  { nodeName: 'opo%' },
  { nodeName: '%04' },
  { nodeName: 'r\\0' },
  { nodeName: 'y "hi' },
  { nodeName: "o'ne" },
  { nodeName: 'ÉVORA' },
  { nodeName: 'évora' },
  { nodeName: 'kelvin' },
  { AlarmName: '100%' },
  { AlarmName: 's_s' },
  { AlarmName: 'tn link deg' },
  { siteId: 'far', severity: 'maj' },
  { siteId: 'L1', nodeName: 'xyz' },
  // Shorter than three characters: the index cannot look these up, the LIKE alone answers.
  { nodeName: 'l0' },
  { siteId: 'li', AlarmName: 'ink' },
  { nodeName: 'nothing like it' },
];

const FIELD_COLUMNS: Record<string, keyof AlarmRow> = { nodeName: 'node_name', AlarmName: 'specific_problem', siteId: 'site_id', severity: 'severity' };

describe.each(TEST_DATABASES)('alarm contains-filters through the trigram index on $name', (kind) => {
  let database: TestDatabase;
  const rows: AlarmRow[] = [];

  beforeAll(async () => {
    database = await kind.open();
    for (const operator of [ONE, TWO]) {
      await runInOperator(operator, async () => {
        const writer = new BatchInsert(database.db, 'monitoring_alarms', Object.keys(alarmRow(0)));
        for (let i = 0; i < ROWS; i += 1) {
          const row = alarmRow(i);
          // The second operator's alarms are the first one's in capitals: a leak shows up as extra rows.
          const stored = operator === ONE ? row : { ...row, node_name: row.node_name.toUpperCase() };
          if (operator === ONE) rows.push(row);
          await writer.add(stored);
        }
        await writer.flush();
      });
    }
  });
  afterAll(async () => {
    await database.dispose();
  });

  const expectedIds = (filters: Record<string, string>) =>
    rows
      .map((row, i) => ({ row, id: i + 1 }))
      .filter(({ row }) => Object.entries(filters).every(([field, needle]) => contains(row[FIELD_COLUMNS[field]!] as string | null, needle)))
      .map(({ id }) => id);

  test.each(FILTERS)('%j: the rows LIKE matches, no more, no fewer', async (filters) => {
    await runInOperator(ONE, async () => {
      const query = { filters: JSON.stringify(filters), size: 100 };
      const page = await listAlarms(database.db, query);
      const expected = expectedIds(filters);
      expect(page.total).toBe(expected.length);
      const all = await listAlarms(database.db, { ...query, size: 100, sort: 'id', order: 'ascend' });
      const ids = all.rows.map((r) => Number(r.id));
      expect(ids).toEqual(expected.slice(0, 100));
      // Without the index: the same page, the same total, whichever way the page was chosen.
      expect(await listFrom(database.db, WITHOUT_INDEX, query)).toEqual(page);
      for (const size of [1, 7]) {
        const small = { ...query, size, page: 2 };
        expect(await listAlarms(database.db, small)).toEqual(await listFrom(database.db, WITHOUT_INDEX, small));
      }
    });
  });

  test("another operator's alarms never match, though the index holds them too", async () => {
    const { total } = await runInOperator(TWO, () => listAlarms(database.db, { filters: JSON.stringify({ nodeName: 'LIS0001' }) }));
    expect(total).toBe(expectedIds({ nodeName: 'LIS0001' }).length);
    const mine = await runInOperator(ONE, () => listAlarms(database.db, { filters: JSON.stringify({ nodeName: 'LIS0001' }), size: 100 }));
    // The first operator's alarms were written first: ids 1 to ROWS.
    expect(mine.rows.filter((r) => Number(r.id) > ROWS)).toEqual([]);
  });

  if (kind.name === 'sqlite') {
    test('a read of the index without its operator scope is refused', async () => {
      await runInOperator(ONE, async () => {
        await expect(sql`select rowid from monitoring_alarms_trigrams where monitoring_alarms_trigrams match 'lis'`.execute(database.db)).rejects.toThrow(
          /scopedTo/,
        );
      });
    });

    test('the index follows every insert, update and delete of the alarms', async () => {
      await runInOperator(ONE, async () => {
        const db = database.db;
        const count = async (needle: string) => (await listAlarms(db, { filters: JSON.stringify({ nodeName: needle }) })).total;
        await db.updateTable('monitoring_alarms').set({ node_name: 'RENAMED_X1' }).where('id', '=', 1).execute();
        expect(await count('renamed_x')).toBe(1);
        await db.deleteFrom('monitoring_alarms').where('node_name', '=', 'RENAMED_X1').execute();
        expect(await count('renamed_x')).toBe(0);
        // The parse's swap copies rows with insert … select; a trigger sees those too.
        await runUnscoped(() =>
          sql`insert into monitoring_alarms (operator_id, node_name, parse_id, mo, tech, site_id, alarm_time, time_basis, severity, specific_problem,
              info, node_acknowledged, alarm_key, archive, file, line)
            select operator_id, 'COPIED_' || node_name, parse_id, mo, tech, site_id, alarm_time, time_basis, severity, specific_problem, info,
              node_acknowledged, alarm_key || '#', archive, file, line from monitoring_alarms where id between 2 and 4 and operator_id = ${ONE}`.execute(db),
        );
        expect(await count('copied_')).toBe(3);
        // One index row per alarm, with the alarm's operator: none left behind by the delete, none missing.
        const { rows: index } = await runUnscoped(() =>
          sql<{ id: number; operator_id: number }>`select rowid as id, operator_id from monitoring_alarms_trigrams order by rowid`.execute(db),
        );
        const alarms = await runUnscoped(() => db.selectFrom('monitoring_alarms').select(['id', 'operator_id']).orderBy('id').execute());
        expect(index.map((r) => [Number(r.id), Number(r.operator_id)])).toEqual(alarms.map((r) => [Number(r.id), Number(r.operator_id)]));
        await expect(
          runUnscoped(() => sql`insert into monitoring_alarms_trigrams (monitoring_alarms_trigrams) values ('integrity-check')`.execute(db)),
        ).resolves.toBeDefined();
      });
    });
  }

  test('an FTS5 string keeps every character but doubles quotes; a text is looked up by its three-character pieces', () => {
    expect(trigramPhrase('say "hi" AND NOT x*')).toBe('"say ""hi"" AND NOT x*"');
    expect(trigramTerms('node_name', 'lis11')).toBe('node_name : ("lis" AND "is1" AND "s11")');
    expect(trigramTerms('node_name', 'aaaa')).toBe('node_name : ("aaa")');
    expect(trigramTerms('node_name', 'é"x')).toBe('node_name : ("é""x")');
    expect(trigramTerms('node_name', 'ab')).toBeNull();
  });
});
