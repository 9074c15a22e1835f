import { recordDumpImport, utranCell } from './support/cells';
import type { FastifyInstance } from 'fastify';
import type { JobsPage, ParseReport, ParseResponse, RunResponse } from 'contracts';
import { JobRefusal, refusalOutcome, runAnswerOutcome, runNotificationKey, runOutcome, type JobKind } from '../src/jobs';
import { parseOutcome } from '../src/monitoring/parse-tasks';
import { PERFORMANCE_KIND } from '../src/monitoring/performance';
import { dumpImportKind } from '../src/network/jobs';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { parsingApp } from './support/parsing';
import { headersOf, setUpCallers, type Callers } from './support/principals';
import { waitFor } from './support/realtime';
import { lteNodeLog, unreachableLog, type AlarmSpec } from './fixtures/monitoring/logs';

/*
 * Issue 46, "outcomes told truly": a job's notification carries what the job found (specification §3:
 * icon and variant success, warning or error), not only whether it threw, and a run's opens its result.
 */

const summary = (ok: number, warnings: number, errors: number) => [
  { label: 'OK', count: ok, tone: 'ok' },
  { label: 'WARNING', count: warnings, tone: 'warning' },
  { label: 'ERROR', count: errors, tone: 'error' },
];

describe('outcome readings', () => {
  test('a run is an error when any error count is above 0, a warning when any warning count is, else a success', () => {
    expect(runOutcome(summary(127, 8, 3))).toBe('error');
    expect(runOutcome(summary(127, 8, 0))).toBe('warning');
    expect(runOutcome(summary(127, 0, 0))).toBe('success');
    // Counts of other tones (MISSING as a warning, EXTRA as info) follow their tone, not their label.
    expect(runOutcome([{ label: 'MISSING', count: 2, tone: 'warning' }])).toBe('warning');
    expect(runOutcome([{ label: 'EXTRA', count: 4, tone: 'info' }])).toBe('success');
    expect(runOutcome([])).toBe('success');
  });

  test("a run's answer is read by its summary; an answer without one (or a malformed one) found nothing to judge", () => {
    expect(runAnswerOutcome({ runId: 1, summary: summary(1, 0, 1), preview: {} })).toBe('error');
    expect(runAnswerOutcome({ runId: 1, summary: summary(1, 2, 0) })).toBe('warning');
    expect(runAnswerOutcome({ message: 'nothing to write', summary: [] })).toBe('success');
    expect(runAnswerOutcome(null)).toBe('success');
    expect(runAnswerOutcome('ERROR')).toBe('success');
    expect(runAnswerOutcome({ summary: 'ERROR 3' })).toBe('success');
    // Items that are not verdict counts are left out, the others still count.
    expect(runAnswerOutcome({ summary: [null, { label: 'ERROR', count: '3', tone: 'error' }, { label: 'WARNING', count: 1, tone: 'warning' }] })).toBe(
      'warning',
    );
  });

  test("a run's notification key names its run; a refusal (no run recorded) keeps the bare key", () => {
    expect(runNotificationKey('validation-cpich', { runId: 42, summary: [] })).toBe('validation-cpich-run-42');
    expect(runNotificationKey('validation-cpich', { message: 'No UTRAN cells on LX0003.' })).toBe('validation-cpich');
    expect(runNotificationKey('validation-cpich', { runId: '42' })).toBe('validation-cpich');
    expect(runNotificationKey('validation-cpich', { runId: 4.2 })).toBe('validation-cpich');
    expect(runNotificationKey('validation-cpich', null)).toBe('validation-cpich');
  });

  test('a refusal is an error, and a 599 (the specification’s warning) a warning', () => {
    expect(refusalOutcome(599)).toBe('warning');
    expect(refusalOutcome(400)).toBe('error');
    expect(refusalOutcome(404)).toBe('error');
    expect(refusalOutcome(500)).toBe('error');
  });

  test('a network dump imported with warnings (a doubtful site rule) is a warning; a clean one a success', () => {
    const kind = dumpImportKind(async () => ({}));
    expect(kind.outcome?.({ message: 'imported', warnings: ['3 names did not match the site rule'] }, {} as never)).toBe('warning');
    expect(kind.outcome?.({ message: 'imported', warnings: [] }, {} as never)).toBe('success');
    expect(kind.outcome?.(null, {} as never)).toBe('success');
  });

  const report = (counts: Partial<ParseReport['counts']>, files: Array<Partial<ParseReport['files'][number]>> = []): ParseReport => ({
    id: 1,
    parsedAt: '2026-01-01T00:00:00Z',
    parsedBy: null,
    archives: ['logs.zip'],
    logsDate: null,
    counts: { files: 0, parsed: 0, unreachable: 0, notInInventory: 0, failed: 0, problems: 0, ...counts },
    files: files.map((f) => ({
      archive: 'logs.zip',
      file: 'x.log',
      node: 'X',
      siteId: null,
      outcome: 'parsed',
      alarms: 0,
      problemCount: 0,
      problems: [],
      reason: null,
      ...f,
    })),
  });
  test('a parse: error when no log could be read, warning when some could not or were cut, else success', () => {
    expect(parseOutcome(report({ files: 2, parsed: 2 }))).toBe('success');
    expect(parseOutcome(report({ files: 2, parsed: 1, notInInventory: 1 }))).toBe('success');
    expect(parseOutcome(report({ files: 2, parsed: 1, unreachable: 1 }))).toBe('warning');
    expect(parseOutcome(report({ files: 2, parsed: 1, failed: 1 }))).toBe('warning');
    expect(parseOutcome(report({ files: 1, parsed: 1, problems: 3 }))).toBe('warning');
    expect(parseOutcome(report({ files: 1, parsed: 1 }, [{ reason: 'Incomplete log: line 40: the alarm table ends without its footer' }]))).toBe('warning');
    expect(parseOutcome(report({ files: 2, unreachable: 2 }))).toBe('error');
  });
});

/** A small inventory whose CPICH verdicts are known: LX0001 has an ERROR cell, LX0002 a WARNING only, LX0004 is clean. */
async function seedUtranCells(db: TestDatabase['db']): Promise<void> {
  const sites = ['LX0001', 'LX0002', 'LX0004'];
  await db
    .insertInto('network_sites')
    .values(sites.map((id) => ({ id, name: `Site ${id}`, lat: 38.7, lon: -9.1 })))
    .execute();
  await db.insertInto('network_nodes').values({ name: 'RNC01', dn: 'SubNetwork=1,MeContext=RNC01', site_id: null, technology: '3G', type: 'RNC' }).execute();
  const utran = utranCell;
  await db
    .insertInto('network_cells')
    .values([
      utran('LX0001', 'LX0001_U1', 10612, 330, 430), // 10 dB below max: OK
      utran('LX0001', 'LX0001_U3', 10637, 430, 430), // CPICH = max: ERROR
      utran('LX0002', 'LX0002_U1', 10612, 300, 430), // 13 dB below max: WARNING
      utran('LX0004', 'LX0004_U1', 10612, 330, 430), // OK
    ])
    .execute();
  await recordDumpImport(db);
}

describe.each(TEST_DATABASES)('job notifications tell the outcome on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let callers: Callers;
  let userId: number;

  /** A run-like kind: answers what its parameters say, read as every run kind reads its answer. */
  const run: JobKind<{ answer: unknown }> = {
    kind: 'test.run',
    label: 'Test run',
    idempotent: true,
    run: async ({ params }) => params.answer,
    notificationKey: (_params, _ok, body) => runNotificationKey('test-run', body),
    outcome: runAnswerOutcome,
    notification: ({ tone }) => `Test run: ${tone}`,
  };
  const refuse: JobKind<{ status: number }> = {
    kind: 'test.refuse',
    label: 'Test refusal',
    idempotent: false,
    run: async ({ params }) => {
      throw new JobRefusal(params.status, { message: `refused with ${params.status}` });
    },
    outcome: () => 'success',
  };
  const misread: JobKind<Record<string, never>> = {
    kind: 'test.misread',
    label: 'Test misread',
    idempotent: false,
    run: async () => ({ message: 'done' }),
    outcome: () => {
      throw new Error('cannot read this answer');
    },
  };

  beforeAll(async () => {
    database = await kind.open();
    const started = await testApp(database, {}, { jobs: { kinds: [run, refuse, misread] as JobKind<never>[] } });
    app = started.app;
    callers = await setUpCallers(app, database, started.config);
    userId = callers.CellwiseOS.userId!;
    await seedUtranCells(database.db);
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  const newest = async () => {
    const row = await database.db
      .selectFrom('notifications')
      .select(['id', 'key', 'title', 'icon', 'variant'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (!row) return null;
    const { id, ...note } = row;
    return { id, note };
  };
  /** Runs a job and answers the notification it raised (the runner tells the owner before the waiting caller is woken). */
  const notified = async (kindName: string, params: unknown) => {
    const before = (await newest())?.id ?? 0;
    const job = await app.jobs.run(kindName, userId, params);
    const after = await newest();
    expect(after?.id ?? 0).toBeGreaterThan(before);
    return { job, note: after!.note };
  };

  test('a run that found errors notifies an error, one with warnings a warning, a clean one a success; icon and variant alike', async () => {
    for (const [counts, tone] of [
      [summary(127, 8, 3), 'error'],
      [summary(127, 8, 0), 'warning'],
      [summary(127, 0, 0), 'success'],
    ] as const) {
      const { note } = await notified('test.run', { answer: { runId: 11, summary: counts } });
      expect(note).toEqual({ key: 'test-run-run-11', title: `Test run: ${tone}`, icon: tone, variant: tone });
    }
  });

  test('a refusal notifies an error, a 599 a warning, whatever the kind reads in answers', async () => {
    expect((await notified('test.refuse', { status: 400 })).note).toMatchObject({ icon: 'error', variant: 'error', title: 'Test refusal: refused with 400' });
    expect((await notified('test.refuse', { status: 599 })).note).toMatchObject({
      icon: 'warning',
      variant: 'warning',
      title: 'Test refusal: refused with 599',
    });
  });

  test('an answer its kind cannot read still notifies its owner, as a warning (never a success it may not be)', async () => {
    const { job, note } = await notified('test.misread', {});
    expect(job.state).toBe('succeeded');
    expect(note).toMatchObject({ icon: 'warning', variant: 'warning', title: 'Test misread: done' });
  });

  test('the job dashboard lists each finished job with the outcome its notification told', async () => {
    const listed = async (kindName: string) => {
      const res = await app.inject({ url: `/api/Jobs/GetJobs?kind=${kindName}&size=100`, headers: headersOf(callers.Administrator) });
      expect(res.statusCode).toBe(200);
      return res.json<JobsPage>().rows.map((row) => [row.state, row.outcome]);
    };
    // Newest first: the three runs of the first test (error, warning, success), the two refusals, the misread answer.
    expect(await listed('test.run')).toEqual([
      ['succeeded', 'success'],
      ['succeeded', 'warning'],
      ['succeeded', 'error'],
    ]);
    expect(await listed('test.refuse')).toEqual([
      ['failed', 'warning'],
      ['failed', 'error'],
    ]);
    expect(await listed('test.misread')).toEqual([['succeeded', 'warning']]);
  });

  test('every run kind reads its outcome with the one run reading, and names its run in its key', () => {
    for (const name of [
      'planning.parameters',
      'validation.cpich',
      'validation.neighbours',
      'validation.ranShare',
      'validation.healthChecks',
      'optimization.neighbours',
    ]) {
      const runKind = app.jobs.kindOf(name);
      expect(runKind?.outcome).toBe(runAnswerOutcome);
      expect(runKind?.notificationKey?.({} as never, true, { runId: 5, summary: [] })).toMatch(/-run-5$/);
    }
  });

  test('a PM counter import with nodes it could not judge (no KPI counters) warns; one judging every node is a success', () => {
    const pm = app.jobs.kindOf(PERFORMANCE_KIND)!;
    expect(pm.outcome?.({ message: 'PM counters imported', nodes: 3, nodesRead: 5, measValues: 9, counterValues: 90 }, {} as never)).toBe('warning');
    expect(pm.outcome?.({ message: 'PM counters imported', nodes: 5, nodesRead: 5, measValues: 9, counterValues: 90 }, {} as never)).toBe('success');
  });

  describe('CPICH validation runs', () => {
    const runCpich = async (sites: string) => {
      const before = (await newest())?.id ?? 0;
      const res = await app.inject({ url: `/api/Validation/RunCpichValidation?sites=${sites}&userId=${userId}`, headers: headersOf(callers.CellwiseOS) });
      expect(res.statusCode).toBe(200);
      const answer = res.json<RunResponse>();
      // The call answers when the job ends; its notification is stored just after, so a loaded machine may need a moment.
      let after = await newest();
      for (let i = 0; i < 200 && (after?.id ?? 0) <= before; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        after = await newest();
      }
      expect(after?.id ?? 0).toBeGreaterThan(before);
      return { answer, note: after!.note };
    };

    test('a run that found an ERROR is announced as an error, and its key opens that run', async () => {
      const { answer, note } = await runCpich('LX0001,LX0002');
      expect(answer.summary.find((s) => s.tone === 'error')?.count).toBe(1);
      expect(note).toMatchObject({ key: `validation-cpich-run-${answer.runId}`, icon: 'error', variant: 'error' });
      expect(note.title).toBe(answer.message);
    });

    test('a run with warnings only is a warning; a clean run a success', async () => {
      const warned = await runCpich('LX0002');
      expect(warned.note).toMatchObject({ key: `validation-cpich-run-${warned.answer.runId}`, icon: 'warning', variant: 'warning' });
      const clean = await runCpich('LX0004');
      expect(clean.answer.summary.filter((s) => s.tone !== 'ok').every((s) => s.count === 0)).toBe(true);
      expect(clean.note).toMatchObject({ key: `validation-cpich-run-${clean.answer.runId}`, icon: 'success', variant: 'success' });
    });
  });
});

describe.each(TEST_DATABASES)('log parse notifications on $name', (kind) => {
  const parsing = parsingApp(kind, ['LX0001', 'LX0002']);
  const parsed = async (entries: Record<string, string | Buffer>) => {
    const res = await parsing.parse(entries);
    expect(res.statusCode).toBe(200);
    const { parseId } = res.json<ParseResponse>();
    const key = `monitoring-parse-${parseId}`;
    const fetch = () => parsing.database.db.selectFrom('notifications').select(['icon', 'variant', 'title']).where('key', '=', key).executeTakeFirst();
    await waitFor(async () => (await fetch()) !== undefined, 2000, 'the parse notification');
    return (await fetch())!;
  };
  /** The log cut after the first row of its alarm table, as a MoBatch run that lost the connection leaves it. */
  const cut = (log: string) => {
    const lines = log.split('\n');
    return lines.slice(0, lines.findIndex((l) => l.startsWith('UNACKNOWLEDGED ALARMS:')) + 5).join('\n') + '\n';
  };
  const alarms: AlarmSpec[] = [
    { at: '2024-04-30 10:00:00', severity: 'w', problem: 'Fan Failure', mo: 'Equipment=1,FieldReplaceableUnit=RRU-1,Fan=1', info: 'fan speed low' },
  ];

  it('complete logs of every node: a success', async () => {
    expect(await parsed({ 'LX0001.log': lteNodeLog('LX0001', { alarms }), 'LX0002.log': lteNodeLog('LX0002', { alarms }) })).toMatchObject({
      icon: 'success',
      variant: 'success',
    });
  });

  it('a cut log: a warning that says so', async () => {
    const note = await parsed({
      'LX0001.log': cut(lteNodeLog('LX0001', { alarms: [...alarms, ...alarms], header: { time: '240501-10:00:00' } })),
      'LX0002.log': lteNodeLog('LX0002', { alarms, header: { time: '240501-10:00:00' } }),
    });
    expect(note).toMatchObject({ icon: 'warning', variant: 'warning' });
    expect(note.title).toContain('1 log cut short');
  });

  it('a node that answered "Unable to connect": a warning naming it', async () => {
    const note = await parsed({ 'LX0001.log': lteNodeLog('LX0001', { alarms, header: { time: '240502-10:00:00' } }), 'LX0002.log': unreachableLog('LX0002') });
    expect(note).toMatchObject({ icon: 'warning', variant: 'warning' });
    expect(note.title).toContain('1 node unreachable (LX0002)');
  });

  it('no node could be read (every one unreachable): an error', async () => {
    expect(await parsed({ 'LX0001.log': unreachableLog('LX0001'), 'LX0002.log': unreachableLog('LX0002') })).toMatchObject({ icon: 'error', variant: 'error' });
  });
});
