import { ANTD_STYLESHEET_ID, applyAntdStylesheet } from './antdStylesheet';

function linkOnPage(): HTMLLinkElement {
  const link = document.createElement('link');
  link.id = ANTD_STYLESHEET_ID;
  link.rel = 'stylesheet';
  link.media = 'print';
  document.head.append(link);
  return link;
}

/** Whether the promise has settled by the time queued microtasks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

afterEach(() => document.getElementById(ANTD_STYLESHEET_ID)?.remove());

describe('applyAntdStylesheet', () => {
  test('waits for the stylesheet to load, then switches it on for the screen', async () => {
    const link = linkOnPage();
    const applied = applyAntdStylesheet();
    expect(await settled(applied)).toBe(false);
    expect(link.media).toBe('print');
    link.dispatchEvent(new Event('load'));
    await applied;
    expect(link.media).toBe('all');
  });

  test('a stylesheet already loaded is switched on at once', async () => {
    const link = linkOnPage();
    Object.defineProperty(link, 'sheet', { value: {} });
    expect(await settled(applyAntdStylesheet())).toBe(true);
    expect(link.media).toBe('all');
  });

  test('a stylesheet that fails to load does not keep the console from drawing', async () => {
    const link = linkOnPage();
    const applied = applyAntdStylesheet();
    link.dispatchEvent(new Event('error'));
    await applied;
    expect(link.media).toBe('all');
  });

  test('a page without the link (no build, a test) has nothing to wait for', async () => {
    expect(await settled(applyAntdStylesheet())).toBe(true);
  });
});
