import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { signIn } from '../testing/pageKit';
import type { SiteOption } from './SiteSelect';
import { siteParamMessage, sitesInAddress, useSiteParam } from './useSiteParam';

/** The operator's sites as the server's search answers them (by id or name, case-insensitive). */
const SITES: SiteOption[] = [
  { value: 'LX0001', text: 'LX0001 – Lisboa Centro' },
  { value: 'LX0002', text: 'LX0002 – Alfama' },
  { value: 'LX00010', text: 'LX00010 – Belém' },
];
const source = jest.fn(async (query: string) => SITES.filter((s) => s.text.toLowerCase().includes(query.toLowerCase())));

function renderAt(address: string) {
  const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[address]}>{children}</MemoryRouter>;
  return renderHook(
    () => {
      const param = useSiteParam(source);
      const location = useLocation();
      return { ...param, address: `${location.pathname}${location.search}` };
    },
    { wrapper },
  );
}

beforeEach(() => {
  signIn('CellwiseOS', 7, { id: 1, name: 'NOS' });
  source.mockClear();
});

test('the address names sites as ?site=A,B or ?site=A&site=B, each once', () => {
  expect(sitesInAddress(new URLSearchParams('site=LX0001,LX0002'))).toEqual(['LX0001', 'LX0002']);
  expect(sitesInAddress(new URLSearchParams('site=LX0001&site=LX0002&site=LX0001'))).toEqual(['LX0001', 'LX0002']);
  expect(sitesInAddress(new URLSearchParams('site=%20LX0001%20,,&run=3'))).toEqual(['LX0001']);
  expect(sitesInAddress(new URLSearchParams('run=3'))).toEqual([]);
});

test("a site of the address is selected once the page's list holds it, as the list spells it", async () => {
  const { result } = renderAt('/validation/healthChecks?site=lx0001');
  expect(result.current.sites).toEqual([]);
  expect(result.current.checking).toBe(true);
  await waitFor(() => expect(result.current.sites).toEqual(['LX0001']));
  expect(result.current.unknown).toEqual([]);
  expect(result.current.checking).toBe(false);
  expect(source).toHaveBeenCalledWith('lx0001');
});

test('a site the list does not hold (another operator’s) selects nothing and is named in the message', async () => {
  const { result } = renderAt('/validation/healthChecks?site=PT9999,LX0002');
  await waitFor(() => expect(result.current.checking).toBe(false));
  expect(result.current.sites).toEqual(['LX0002']);
  expect(result.current.unknown).toEqual(['PT9999']);
  expect(siteParamMessage(result.current.unknown)).toBe("Site PT9999 is not among the current operator's sites for this page, so it is not selected.");
  expect(siteParamMessage([])).toBeNull();
});

test('a search that only finds a longer id does not select it', async () => {
  const { result } = renderAt('/x?site=LX001');
  await waitFor(() => expect(result.current.checking).toBe(false));
  expect(result.current.sites).toEqual([]);
  expect(result.current.unknown).toEqual(['LX001']);
});

test('a choice is written to the address in place (other parameters kept), selected at once, and cleared with the last site', async () => {
  const { result } = renderAt('/planning/parameterplanning?run=4');
  expect(result.current.checking).toBe(false);
  act(() => result.current.setSites(['LX0001', 'LX0002']));
  expect(result.current.address).toBe('/planning/parameterplanning?run=4&site=LX0001%2CLX0002');
  expect(result.current.sites).toEqual(['LX0001', 'LX0002']);
  // Chosen from the list: not looked up again.
  expect(source).not.toHaveBeenCalled();
  act(() => result.current.setSites([]));
  expect(result.current.address).toBe('/planning/parameterplanning?run=4');
  expect(result.current.sites).toEqual([]);
});
