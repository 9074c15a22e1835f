import type { WorkOrderStatusRow } from 'contracts';
import {
  buildTracker,
  computeDelta,
  containsPattern,
  dateFilterText,
  headerKey,
  headerProblem,
  IMPORT_SPECS,
  isBlankRow,
  isoWeek,
  matchHeaders,
  normalizeCell,
  parseChoice,
  parseDate,
  parseFilters,
  parseText,
  parseWeek,
  parseWholeNumber,
  validateRow,
  type PlanData,
  type TrackerSide,
} from '.';

describe('cell values', () => {
  it('flattens exceljs shapes and never throws on odd ones', () => {
    expect(normalizeCell('  a ')).toBe('a');
    expect(normalizeCell('   ')).toBeNull();
    expect(normalizeCell({ richText: [{ text: 'a' }, { text: 'b' }] })).toBe('ab');
    expect(normalizeCell({ formula: '1+1', result: 2 })).toBe(2);
    expect(normalizeCell({ formula: 'X()' })).toBeNull();
    expect(normalizeCell({ text: 'link', hyperlink: 'http://x' })).toBe('link');
    expect(normalizeCell({ error: '#N/A' })).toEqual({ error: '#N/A' });
    expect(normalizeCell(Number.NaN)).toBeNull();
    expect(normalizeCell({ weird: true })).toBeNull();
    expect(normalizeCell(Symbol.iterator)).toBeNull();
  });

  it('parses dates from Excel dates, serials, DD-MM-YYYY and ISO text, as UTC at whole seconds', () => {
    const ok = (v: unknown) => parseDate(normalizeCell(v));
    expect(ok(new Date(Date.UTC(2024, 2, 5, 14, 30, 0, 400)))).toEqual({ ok: true, value: '2024-03-05T14:30:00Z' });
    expect(ok(45356)).toEqual({ ok: true, value: '2024-03-05T00:00:00Z' });
    expect(ok(45356.5)).toEqual({ ok: true, value: '2024-03-05T12:00:00Z' });
    expect(ok('05-03-2024')).toEqual({ ok: true, value: '2024-03-05T00:00:00Z' });
    expect(ok('5/3/2024 14:30')).toEqual({ ok: true, value: '2024-03-05T14:30:00Z' });
    expect(ok('05.03.2024 14:30:15')).toEqual({ ok: true, value: '2024-03-05T14:30:15Z' });
    expect(ok('2024-03-05')).toEqual({ ok: true, value: '2024-03-05T00:00:00Z' });
    expect(ok('2024-03-05T14:30:00+01:00')).toEqual({ ok: true, value: '2024-03-05T13:30:00Z' });
    expect(ok('2024-03-05T14:30:00.123Z')).toEqual({ ok: true, value: '2024-03-05T14:30:00Z' });
    expect(ok(null)).toEqual({ ok: true, value: null });
  });

  it('refuses what is not a date, with a hint', () => {
    for (const bad of [
      '31-02-2024',
      '2024-13-01',
      'tomorrow',
      '05-03-24',
      '25:00',
      '05-03-2024 24:00',
      12,
      -1,
      3_000_000,
      true,
      { error: '#VALUE!' },
      new Date(Number.NaN),
    ]) {
      const parsed = parseDate(normalizeCell(bad));
      expect({ bad, ok: parsed.ok }).toEqual({ bad, ok: false });
    }
    expect(parseDate('soon')).toEqual({ ok: false, problem: 'Not a date: "soon" (use DD-MM-YYYY HH:mm:ss, YYYY-MM-DD or an Excel date).' });
  });

  it('parses weeks, whole numbers, choices and bounded text', () => {
    expect(parseWeek(5)).toEqual({ ok: true, value: 5 });
    expect(parseWeek('W05')).toEqual({ ok: true, value: 5 });
    expect(parseWeek('2024-W53')).toEqual({ ok: true, value: 53 });
    for (const bad of [0, 54, 5.5, 'W60', 'week 5', '2024-05']) expect(parseWeek(bad).ok).toBe(false);
    expect(parseWholeNumber('12')).toEqual({ ok: true, value: 12 });
    for (const bad of [-1, 1.5, '1e3', 'x']) expect(parseWholeNumber(bad).ok).toBe(false);
    const status = parseChoice(['On time', 'Delayed', 'Done']);
    expect(status('on  TIME')).toEqual({ ok: true, value: 'On time' });
    expect(status('late').ok).toBe(false);
    expect(parseText(12)).toEqual({ ok: true, value: '12' });
    expect(parseText('x'.repeat(1001)).ok).toBe(false);
    expect(parseText({ error: '#REF!' }).ok).toBe(false);
  });

  it('computes ISO weeks', () => {
    expect(isoWeek('2024-01-01T00:00:00Z')).toBe(1);
    expect(isoWeek('2021-01-03T00:00:00Z')).toBe(53);
    expect(isoWeek('2024-12-30T00:00:00Z')).toBe(1);
    expect(isoWeek('not a date')).toBeNull();
  });
});

describe('headers and rows', () => {
  const fields = IMPORT_SPECS.workOrderStatus.map((s) => s.field);

  it('matches headers without case or spaces, ignores extras, reports missing and duplicated ones', () => {
    expect(headerKey(' Wow Last  Change ')).toBe('wowlastchange');
    const match = matchHeaders([undefined, 'SITE ID', 'id', 'wo type', 'woId', 'wowStatus', 'wowCloseDate', 'wowLastChange', 'wow last update'], fields);
    expect(match.missing).toEqual([]);
    expect([...match.columns.values()]).toEqual(fields);
    expect(headerProblem(match)).toBeNull();
    expect(headerProblem(matchHeaders([undefined, 'siteId', 'woType'], fields))).toBe(
      'Missing columns: woId, wowStatus, wowCloseDate, wowLastChange, wowLastUpdate.',
    );
    expect(headerProblem(matchHeaders([undefined, 'a', 'b'], fields))).toMatch(/^The first row must name the columns/);
    expect(headerProblem(matchHeaders([undefined, ...fields, 'SiteId'], fields))).toBe('Column named twice: siteId.');
    expect(matchHeaders([], fields).missing).toEqual(fields);
  });

  it('validates a row, reporting each problem with the header as written', () => {
    const header = matchHeaders([undefined, 'Site Id', 'woType', 'woId', 'wowStatus', 'wowCloseDate', 'wowLastChange', 'wowLastUpdate'], fields);
    const good = validateRow<WorkOrderStatusRow>(
      2,
      [undefined, 'S1', 'Install', 'WO-1', 'Open', null, '01-01-2024', undefined],
      header,
      IMPORT_SPECS.workOrderStatus,
    );
    expect(good).toEqual({
      ok: true,
      value: {
        siteId: 'S1',
        woType: 'Install',
        woId: 'WO-1',
        wowStatus: 'Open',
        wowCloseDate: null,
        wowLastChange: '2024-01-01T00:00:00Z',
        wowLastUpdate: null,
      },
    });
    const bad = validateRow(7, [undefined, '', 'Install', 'WO-1', 'Open', 'never'], header, IMPORT_SPECS.workOrderStatus);
    expect(bad).toEqual({
      ok: false,
      problems: [
        { row: 7, column: 'Site Id', problem: 'Required.' },
        { row: 7, column: 'wowCloseDate', problem: expect.stringMatching(/^Not a date/) },
      ],
    });
    expect(isBlankRow([undefined, null, '  '], header)).toBe(true);
    expect(isBlankRow([undefined, null, 'x'], header)).toBe(false);
  });
});

describe('list filters', () => {
  it('parses JSON filters of known fields and refuses the rest', () => {
    expect(parseFilters(undefined, ['a'])).toEqual([]);
    expect(parseFilters('{"a":" x ","b":null}', ['a', 'b'])).toEqual([['a', 'x']]);
    expect(parseFilters('{"a":["x"]}', ['a'])).toEqual([['a', 'x']]);
    expect(parseFilters('{"a":3}', ['a'])).toEqual([['a', '3']]);
    for (const bad of ['{', '[]', '"x"', 'null', '{"c":"x"}', '{"a":{"b":1}}', `{"a":"${'x'.repeat(201)}"}`]) {
      expect(() => parseFilters(bad, ['a'])).toThrow(expect.objectContaining({ statusCode: 400 }));
    }
  });

  it('turns shown dates into stored text and escapes LIKE wildcards', () => {
    expect(dateFilterText('05-03-2024')).toBe('2024-03-05');
    expect(dateFilterText('05-03-2024 14:3')).toBe('2024-03-05T14:3');
    expect(dateFilterText('03-2024')).toBe('2024-03');
    expect(dateFilterText('2024')).toBe('2024');
    expect(containsPattern('50%_A\\')).toBe('%50\\%\\_a\\\\%');
  });
});

describe('tracker sync', () => {
  const now = new Date('2024-06-01T00:00:00Z');
  const plan = (localId: string, commDate: string | null, extra: Partial<PlanData> = {}): PlanData => ({
    localId,
    technology: null,
    equipCode: null,
    equipName: `eq ${localId}`,
    supplier: null,
    workType: null,
    commDate,
    week: null,
    mkOwner: null,
    impOwner: null,
    btsArea: null,
    btsTech: null,
    project: null,
    comments: null,
    statResponse: null,
    bssTech: null,
    workOrder: null,
    localType: null,
    LastUpdate: '2024-05-01T00:00:00Z',
    ...extra,
  });
  const wo = (siteId: string, woType: string, wowStatus: string, extra: Partial<WorkOrderStatusRow> = {}): WorkOrderStatusRow => ({
    siteId,
    woType,
    woId: `${siteId}-${woType}`,
    wowStatus,
    wowCloseDate: null,
    wowLastChange: null,
    wowLastUpdate: null,
    ...extra,
  });

  it('builds one row per site with week, dayCount, status and delivery from the work orders', () => {
    const rows = buildTracker(
      [plan('A', '2024-03-05T00:00:00Z'), plan('A', '2024-07-01T00:00:00Z', { equipName: 'later' }), plan('B', '2024-05-01T00:00:00Z'), plan('C', null)],
      [
        wo('A', 'Install', 'Open', { wowLastChange: '2024-05-01T00:00:00Z' }),
        wo('A', 'Survey', 'In progress', { wowLastChange: '2024-05-10T00:00:00Z' }),
        wo('B', 'Install', 'Closed', { wowCloseDate: '2024-05-20T00:00:00Z' }),
        wo('B', 'Survey', 'Done', { wowLastChange: '2024-05-25T00:00:00Z' }),
      ],
      new Map([['A', '2024-01-01T00:00:00Z']]),
      now,
    );
    expect(rows.map((r) => [r.localId, r.equipName, r.week, r.dateEntry, r.dayCount, r.currentStatus, r.deliveredDate, r.scheduleStatus])).toEqual([
      ['A', 'later', 27, '2024-01-01T00:00:00Z', 152, 'In progress', null, 'On time'],
      ['B', 'eq B', 18, '2024-05-01T00:00:00Z', 31, 'Done', '2024-05-25T00:00:00Z', 'Done'],
      ['C', 'eq C', null, '2024-05-01T00:00:00Z', 31, null, null, 'On time'],
    ]);
  });

  it('marks a passed commissioning date without delivery as Delayed', () => {
    const [row] = buildTracker([plan('A', '2024-03-05T00:00:00Z', { LastUpdate: null })], [], new Map(), now);
    expect(row).toMatchObject({ scheduleStatus: 'Delayed', dateEntry: '2024-06-01T00:00:00Z', dayCount: 0 });
    expect(buildTracker([], [wo('A', 'x', 'Open')], new Map(), now)).toEqual([]);
  });
});

describe('work order delta', () => {
  const site = (localId: string, currentStatus: string | null, deliveredDate: string | null = null): TrackerSide => ({
    localId,
    currentStatus,
    deliveredDate,
    scheduleStatus: deliveredDate ? 'Done' : 'On time',
    lastUpdate: '2024-06-01T00:00:00Z',
  });
  const wo = (siteId: string, woType: string, wowStatus: string, extra: Partial<WorkOrderStatusRow> = {}): WorkOrderStatusRow => ({
    siteId,
    woType,
    woId: `${siteId}-${woType}`,
    wowStatus,
    wowCloseDate: null,
    wowLastChange: null,
    wowLastUpdate: null,
    ...extra,
  });

  it('lists each difference with its action, sorted by site and type', () => {
    const delta = computeDelta(
      [site('D', 'Open', '2024-05-01T00:00:00Z'), site('A', ' open '), site('B', 'Open'), site('E', null), site('A', 'ignored duplicate')],
      [
        wo('A', 'Install', 'Open'),
        wo('B', 'Install', 'Old', { wowLastChange: '2024-01-01T00:00:00Z' }),
        wo('B', 'Install', 'Closed', { wowLastChange: '2024-02-01T00:00:00Z', wowCloseDate: '2024-02-01T00:00:00Z' }),
        wo('C', 'Install', 'Open'),
        wo('D', 'Install', 'Open'),
      ],
    );
    expect(delta.map((r) => [r.siteId, r.woType, r.trackerStatus, r.wowStatus, r.action])).toEqual([
      ['B', 'Install', 'Open', 'Closed', 'Update tracker'],
      ['C', 'Install', null, 'Open', 'Missing in tracker'],
      ['D', 'Install', 'Open', 'Open', 'Close WO'],
      ['E', null, null, null, 'Missing in WOW'],
    ]);
    expect(delta[0]).toMatchObject({ woId: 'B-Install', wowCloseDate: '2024-02-01T00:00:00Z', trackerLastUpdate: '2024-06-01T00:00:00Z' });
    expect(computeDelta([], [])).toEqual([]);
  });
});
