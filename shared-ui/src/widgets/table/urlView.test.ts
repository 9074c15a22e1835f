import { readView, searchWithView, viewParam } from './urlView';

const KEY = 'monitoring.faultManagement.alarms';
const withView = (value: unknown, rest = '') => `?${new URLSearchParams({ [viewParam(KEY)]: JSON.stringify(value) }).toString()}${rest}`;

describe("a table's view in the address", () => {
  test('what is written is read back: filters, sort and page', () => {
    const view = { page: 3, sort: 'severity', order: 'descend' as const, filters: { severity: 'Major', nodeName: 'LX 01' } };
    const search = searchWithView(KEY, view, '?run=4');
    expect(new URLSearchParams(search).get('run')).toBe('4');
    expect(readView(KEY, search)).toEqual(view);
  });

  test('a table at its defaults leaves no parameter; a ?filters= it took over goes', () => {
    expect(searchWithView(KEY, { page: 1, filters: {} }, withView({ p: 2 }))).toBe('');
    expect(searchWithView(KEY, { page: 1, filters: { siteId: 'LX' } }, '?filters=%7B%22siteId%22%3A%22LX%22%7D')).toBe(withView({ f: { siteId: 'LX' } }));
  });

  test('another table’s view is left alone', () => {
    const other = `?${viewParam('monitoring.faultManagement.summary')}=%7B%22p%22%3A2%7D`;
    const search = searchWithView(KEY, { page: 2, filters: {} }, other);
    expect(readView('monitoring.faultManagement.summary', search)).toEqual({ page: 2, filters: {} });
    expect(readView(KEY, search)).toEqual({ page: 2, filters: {} });
  });

  test('a view no table can show is none, or what of it makes sense', () => {
    expect(readView(KEY, '')).toBeNull();
    expect(readView(KEY, `?${viewParam(KEY)}=not-json`)).toBeNull();
    expect(readView(KEY, withView([1, 2]))).toBeNull();
    expect(readView(KEY, withView({ p: -4, s: 'severity', o: 'sideways', f: { a: 3, b: ' ', c: 'x' } }))).toEqual({ page: 1, filters: { c: 'x' } });
    expect(readView(KEY, withView({ p: 1e30 }))).toEqual({ page: 1, filters: {} });
  });
});
