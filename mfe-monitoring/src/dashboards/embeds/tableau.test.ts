import type { EmbedRequest, EmbedToken } from './adapter';
import type { TableauVizOptions } from './tableau';
import { createTableauEmbed, trustedViewUrl } from './tableau';

// A fake tableau-api-js: evaluating it sets window.tableau, as the real package does; the Viz records
// how it was built and puts a frame in its container.
const mockVizzes: Array<{ container: HTMLElement; url: string; options: TableauVizOptions; showExportPDFDialog: jest.Mock; dispose: jest.Mock }> = [];
jest.mock('tableau-api-js', () => {
  window.tableau = {
    Viz: jest.fn(function (this: unknown, container: HTMLElement, url: string, options: TableauVizOptions) {
      const frame = document.createElement('iframe');
      container.appendChild(frame);
      const viz = { container, url, options, showExportPDFDialog: jest.fn(), dispose: jest.fn(() => frame.remove()) };
      mockVizzes.push(viz);
      return viz;
    }) as unknown as NonNullable<Window['tableau']>['Viz'],
  };
  return {};
});

const VIEW = 'https://tableau.example.com/t/rollout/views/Rollout/Overview';

function request() {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const onLoaded = jest.fn();
  const onError = jest.fn();
  const req: EmbedRequest = {
    container,
    url: VIEW,
    title: 'Rollout',
    token: { accessToken: 'eyJ.token.sig', expiresAt: '2026-03-02T10:05:00Z' },
    onLoaded,
    onError,
    refreshToken: jest.fn<Promise<EmbedToken>, []>(),
  };
  return { req, container, onLoaded, onError };
}

beforeEach(() => {
  mockVizzes.length = 0;
});

test('builds the Viz in the container on the trusted URL, tabs hidden, filling the container', async () => {
  const { req, container } = request();
  await createTableauEmbed(req);
  expect(mockVizzes).toHaveLength(1);
  const viz = mockVizzes[0]!;
  expect(viz.container).toBe(container);
  expect(viz.url).toBe('https://tableau.example.com/trusted/eyJ.token.sig/t/rollout/views/Rollout/Overview');
  expect(viz.options).toEqual(expect.objectContaining({ hideTabs: true, width: '100%', height: '100%' }));
  expect(container.querySelector('iframe')?.getAttribute('title')).toBe('Rollout');
});

test('first interactive is the loaded signal', async () => {
  const { req, onLoaded } = request();
  await createTableauEmbed(req);
  expect(onLoaded).not.toHaveBeenCalled();
  mockVizzes[0]!.options.onFirstInteractive();
  expect(onLoaded).toHaveBeenCalledTimes(1);
});

test("Export PDF opens Tableau's dialog; fullscreen puts the container in the browser's fullscreen", async () => {
  const { req, container } = request();
  const requestFullscreen = jest.fn(async () => undefined);
  container.requestFullscreen = requestFullscreen;
  const adapter = await createTableauEmbed(req);
  adapter.exportPdf!();
  expect(mockVizzes[0]!.showExportPDFDialog).toHaveBeenCalledTimes(1);
  adapter.fullscreen();
  expect(requestFullscreen).toHaveBeenCalledTimes(1);
});

test('a refused fullscreen leaves the view as it was', async () => {
  const { req, container, onError } = request();
  container.requestFullscreen = jest.fn(async () => {
    throw new TypeError('Permissions check failed');
  });
  const adapter = await createTableauEmbed(req);
  adapter.fullscreen();
  await Promise.resolve();
  expect(onError).not.toHaveBeenCalled();
});

test('dispose disposes the Viz, and a late first-interactive is no longer reported', async () => {
  const { req, container, onLoaded } = request();
  const adapter = await createTableauEmbed(req);
  adapter.dispose();
  expect(mockVizzes[0]!.dispose).toHaveBeenCalledTimes(1);
  expect(container.querySelector('iframe')).toBeNull();
  mockVizzes[0]!.options.onFirstInteractive();
  expect(onLoaded).not.toHaveBeenCalled();
});

test('trustedViewUrl: the ticket goes after /trusted/, before the view path; an address-bar URL becomes the path form', () => {
  expect(trustedViewUrl('https://tab.example.com/views/Wb/View', 'T1')).toBe('https://tab.example.com/trusted/T1/views/Wb/View');
  expect(trustedViewUrl('https://tab.example.com/views/Wb/View?:refresh=yes', 'T1')).toBe('https://tab.example.com/trusted/T1/views/Wb/View?:refresh=yes');
  expect(trustedViewUrl('https://tab.example.com/#/site/ops/views/Wb/View', 'T1')).toBe('https://tab.example.com/trusted/T1/t/ops/views/Wb/View');
  expect(trustedViewUrl('https://tab.example.com/#/views/Wb/View', 'a/b')).toBe('https://tab.example.com/trusted/a%2Fb/views/Wb/View');
  // Tableau's own ticket format stays as its documentation writes it.
  expect(trustedViewUrl('https://tab.example.com/views/Wb/View', '9D1ObyqDQmSIOyQpKdy4Sw==:dg62gCsSE0QRArXNTOp6mlJ5')).toBe(
    'https://tab.example.com/trusted/9D1ObyqDQmSIOyQpKdy4Sw==:dg62gCsSE0QRArXNTOp6mlJ5/views/Wb/View',
  );
  expect(trustedViewUrl('https://tab.example.com/views/Wb/View', 'a+b c')).toBe('https://tab.example.com/trusted/a+b%20c/views/Wb/View');
});
