import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { runInOperator } from '../src/db/operator-scope';
import { main, parseArgs, runImportDump, USAGE, type CliOutput } from '../src/cli/import-dump';
import { DEFAULT_SITE_RULE_SOURCE } from '../src/domain/network';
import { countStored } from '../src/network';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { bodastage, domainFixture, fixture, RESOLUTION, removeTempDirs, tempDir } from './fixtures/network-import/dumps';

const API_DIR = path.resolve(__dirname, '..');

afterAll(() => removeTempDirs());

function captured(): CliOutput & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => stdout.push(t), err: (t) => stderr.push(t) };
}

/** The CLI as `npm run import:dump` starts it, but from the sources. */
function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/cli/import-dump.ts', ...args], {
      cwd: API_DIR,
      env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('import-dump arguments', () => {
  test.each([
    [['dump.xml'], { file: 'dump.xml', format: 'auto', coords: 'microdegrees' }],
    [['--format', 'cmedit', 'dump.txt', '--coords=3gpp'], { file: 'dump.txt', format: 'cmedit', coords: '3gpp' }],
    [['--format=bulkcm', '--coords', 'degrees', 'a.xml'], { file: 'a.xml', format: 'bulkcm', coords: 'degrees' }],
    [[], { error: 'Which file? Name the dump to import.' }],
    [['a.xml', 'b.xml'], { error: 'Import one file at a time.' }],
    [['a.xml', '--format', 'csv'], { error: '--format must be one of auto, bulkcm, cmedit (got "csv").' }],
    [['a.xml', '--coords=utm'], { error: '--coords must be one of microdegrees, 3gpp, degrees (got "utm").' }],
    [['a.xml', '--format'], { error: '--format needs a value.' }],
    [['a.xml', '--force'], { error: 'Unknown option --force.' }],
    [['a.xml', '--site-rule'], { error: '--site-rule needs a value.' }],
    [
      ['a.xml', '--site-rule', '^ERBS_(\\d+)'],
      { error: '--site-rule: the rule has no group named site; mark the site id with (?<site>…), e.g. ^ERBS_(?<site>\\d+)' },
    ],
    [['a.xml', '--site-rule=(?<site>'], { error: '--site-rule: not a valid regular expression: /(?<site>/: Unterminated group' }],
  ])('%j', (argv, expected) => {
    expect(parseArgs(argv)).toEqual(expected);
  });

  test('--site-rule compiles the rule; SITE_RULE from the environment is the default it overrides', () => {
    const rule = (argv: string[], env?: string) => {
      const args = parseArgs(argv, { siteRule: env });
      if ('error' in args) throw new Error(args.error);
      return args.siteRule?.source;
    };
    expect(rule(['a.xml', '--site-rule', '^ERBS_(?<site>\\d+)'])).toBe('^ERBS_(?<site>\\d+)');
    expect(rule(['a.xml', '--site-rule=_(?<site>\\d+)_'], '^(?<site>\\d+)')).toBe('_(?<site>\\d+)_');
    expect(rule(['a.xml'], '^(?<site>\\d+)')).toBe('^(?<site>\\d+)');
    expect(rule(['a.xml'], '')).toBeUndefined();
    expect(rule(['a.xml'])).toBeUndefined();
    expect(parseArgs(['a.xml'], { siteRule: '(a+)+(?<site>x)' })).toEqual({
      error: expect.stringMatching(/^SITE_RULE: "\(a\+\)\+" repeats a repetition/) as unknown as string,
    });
  });
});

/** A DATA_DIR whose database is migrated and holds these operators (ids 1, 2, … in order). */
async function dataDirWith(operators: readonly string[]): Promise<string> {
  const dataDir = tempDir();
  const handle = openDatabase({ databaseUrl: null, sqliteFile: path.join(dataDir, 'cellwise.sqlite') });
  try {
    await migrateToLatest(handle.db);
    for (const name of operators) await handle.db.insertInto('operators').values({ name, avatar: null, created_at: new Date().toISOString() }).execute();
  } finally {
    await handle.close();
  }
  return dataDir;
}

describe('the import-dump command (SQLite under DATA_DIR)', () => {
  test('imports a file named relative to where it was typed, prints the counts; a bad file exits 1 and changes nothing', async () => {
    const dataDir = await dataDirWith(['Vodafone PT']);
    const env = { DATA_DIR: dataDir, INIT_CWD: path.dirname(fixture(RESOLUTION.file)) };
    const good = await runCli([RESOLUTION.file, '--format', 'cmedit'], env);
    expect(good.stderr).toBe('');
    expect(good.status).toBe(0);
    expect(good.stdout).toContain('Network dump imported: 3 sites, 6 cells.');
    expect(good.stdout).toMatch(/relations\s+6 \(UTRAN-UTRAN 1, LTE-LTE 4, LTE-NR 1\)/);
    expect(good.stdout).toContain(`  site rule       ${DEFAULT_SITE_RULE_SOURCE} (default)\n`);
    expect(good.stdout).toContain('  nodes per site  LX0950 1, LX0951 1 (2 nodes on 3 sites)\n');
    expect(good.stdout).toContain('  operator        Vodafone PT (1)\n');

    const bad = await runCli([domainFixture('truncated.xml')], env);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/truncated\.xml: Line \d+, column \d+: unexpected end of file/);
    expect(bad.stderr).toContain('Nothing was changed');

    const handle = openDatabase({ databaseUrl: null, sqliteFile: path.join(dataDir, 'cellwise.sqlite') });
    try {
      expect((await countStored(handle.db)).cells).toEqual({ '2G': 0, '3G': 2, '4G': 3, '5G': 1, 'NB-IoT': 0 });
      expect(await handle.db.selectFrom('network_imports').select('file_name').execute()).toEqual([{ file_name: RESOLUTION.file }]);
    } finally {
      await handle.close();
    }
  });

  test('--site-rule (over SITE_RULE) decides the sites; the nodes per site are printed, the warnings go to stderr', async () => {
    const env = { DATA_DIR: await dataDirWith(['Vodafone PT']), SITE_RULE: '^ERBS_(?<site>\\d+)' };
    const ruled = await runCli([domainFixture('type-prefixed-nodes.txt'), '--site-rule', '^(?<site>[A-Z]+)_'], env);
    expect(ruled.status).toBe(0);
    expect(ruled.stdout).toContain('  site rule       ^(?<site>[A-Z]+)_\n');
    expect(ruled.stdout).toContain('  nodes per site  ERBS 2, RBS 2, MSRBS 1, NR 1 (6 nodes on 6 sites)\n');
    expect(ruled.stderr).toBe('Warning: 2 names did not match the site rule and became site ids whole (12345W1, 12346W1).\n');

    const fromEnv = await runCli([domainFixture('type-prefixed-nodes.txt')], env);
    expect(fromEnv.status).toBe(0);
    expect(fromEnv.stdout).toContain('  site rule       ^ERBS_(?<site>\\d+)\n');
    expect(fromEnv.stdout).toMatch(/nodes per site {2}12345 1, 12346 1, /);

    const bad = await runCli([domainFixture('type-prefixed-nodes.txt')], { ...env, SITE_RULE: 'ERBS_(\\d+)' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^SITE_RULE: the rule has no group named site/);
  });

  test("the dump replaces the named operator's inventory only; with several operators and none named, or an unknown one, nothing is imported", async () => {
    const dataDir = await dataDirWith(['Vodafone PT', 'NOS']);
    const env = { DATA_DIR: dataDir, INIT_CWD: path.dirname(fixture(RESOLUTION.file)) };
    const unnamed = await runCli([RESOLUTION.file], env);
    expect(unnamed.status).toBe(1);
    expect(unnamed.stderr).toBe("Which operator's inventory does the dump replace? Name it with --operator <id|name> (1 Vodafone PT, 2 NOS).\n");
    const unknown = await runCli([RESOLUTION.file, '--operator', 'MEO'], env);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe('--operator: no operator "MEO" (1 Vodafone PT, 2 NOS).\n');

    expect((await runCli([bodastage('bulkcm2.xml'), '--operator', '1'], env)).status).toBe(0);
    const intoNos = await runCli([RESOLUTION.file, '--operator', 'nos'], env);
    expect(intoNos.status).toBe(0);
    expect(intoNos.stdout).toContain('  operator        NOS (2)\n');

    const handle = openDatabase({ databaseUrl: null, sqliteFile: path.join(dataDir, 'cellwise.sqlite') });
    try {
      const cellsOf = (operator: number) => runInOperator(operator, () => countStored(handle.db)).then((c) => c.cells);
      expect(await cellsOf(1)).toEqual({ '2G': 0, '3G': 0, '4G': 2, '5G': 0, 'NB-IoT': 0 });
      expect(await cellsOf(2)).toEqual({ '2G': 0, '3G': 2, '4G': 3, '5G': 1, 'NB-IoT': 0 });
    } finally {
      await handle.close();
    }
  });

  test('a database without any operator: the command says so and imports nothing', async () => {
    const dataDir = await dataDirWith([]);
    const none = await runCli([RESOLUTION.file], { DATA_DIR: dataDir, INIT_CWD: path.dirname(fixture(RESOLUTION.file)) });
    expect(none.status).toBe(1);
    expect(none.stderr).toBe('There is no operator yet: create one in the console (or start the server once with demo data) first.\n');
  });

  test('usage errors exit 2; a missing file exits 1 before the database is created', async () => {
    const dataDir = tempDir();
    const output = captured();
    expect(await main(['--coords', 'utm', 'x.xml'], { DATA_DIR: dataDir }, output)).toBe(2);
    expect(output.stderr).toEqual(['--coords must be one of microdegrees, 3gpp, degrees (got "utm").', USAGE]);

    const missing = captured();
    expect(await main(['no-such-dump.xml'], { DATA_DIR: dataDir, INIT_CWD: dataDir }, missing)).toBe(1);
    expect(missing.stderr).toEqual([expect.stringMatching(/^Cannot read .*no-such-dump\.xml: ENOENT/)]);
    expect(fs.existsSync(path.join(dataDir, 'cellwise.sqlite'))).toBe(false);
  });
});

describe.each(TEST_DATABASES)('runImportDump on $name', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await kind.open();
  });
  afterAll(async () => {
    await database.dispose();
  });

  test('good file: 0 and the counts; bad file: 1, the parser message, the previous data set intact', async () => {
    const good = captured();
    expect(await runImportDump(database.db, { file: bodastage('bulkcm2.xml'), format: 'auto', coords: 'microdegrees' }, good)).toBe(0);
    expect(good.stdout[0]).toBe('Network dump imported: 1 sites, 2 cells.');
    const before = await countStored(database.db);

    const bad = captured();
    expect(await runImportDump(database.db, { file: domainFixture('wrong-root.xml'), format: 'auto', coords: 'microdegrees' }, bad)).toBe(1);
    expect(bad.stdout).toEqual([]);
    expect(bad.stderr[0]).toMatch(/wrong-root\.xml: Line 2, column 1: the root element is <measCollecFile>/);
    expect(await countStored(database.db)).toEqual(before);
  });
});
