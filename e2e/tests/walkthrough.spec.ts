import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Locator, type Page, type TestInfo } from '@playwright/test';
import { REPO_ROOT, startConsole, type RunningConsole } from '../support/console';
import { ADMIN, DEMO_PASSWORD, DEMO_USERS, TOKEN_KEY } from '../support/session';

/*
 * The console as its users meet it (issue 16): every route of the specification's route table, as
 * each of the five roles, at a desktop and a phone size, on a fresh console where nobody has agreed to
 * cookies yet. Each visit is a full load (a bookmark, a reload) and fails on what a user would trip
 * over: content wider than the screen, a popover or dropdown outside it, a control hidden under a
 * fixed layer, a cut menu label with no way to read it, a toast outside the bottom right, a page
 * error, a failed request. Every problem of one role and size is collected and reported together.
 * Screenshots of every visit are kept in the test's output directory.
 */

type Role = 'Administrator' | 'Manager' | 'CellwiseHQ' | 'CellwiseOS' | 'Client';
/** Who may open a route (specification §6; the demo users of the engineering roles are in project Operations). */
type Area = 'signedIn' | 'engineering' | 'management' | 'jobs';

/**
 * `opensMenus`: the one walker that also opens each page's own menus and selects (see below).
 * `onPhone`: walked at phone size too. Every role walks at desktop size, where what each may open is
 * checked; at phone size the walk checks how pages lay out, and the Administrator (every page, every
 * control) and the Client (the fewest pages, the most refusals) between them meet every layout the
 * other roles would, in about half the time of walking all five.
 */
const ROLES: ReadonlyArray<{ role: Role; email: string; password: string; opensMenus?: boolean; onPhone?: boolean }> = [
  { role: 'Administrator', email: ADMIN.email, password: ADMIN.password, opensMenus: true, onPhone: true },
  { role: 'Manager', email: DEMO_USERS.Manager, password: DEMO_PASSWORD },
  { role: 'CellwiseHQ', email: DEMO_USERS.CellwiseHQ, password: DEMO_PASSWORD },
  { role: 'CellwiseOS', email: DEMO_USERS.CellwiseOS, password: DEMO_PASSWORD },
  { role: 'Client', email: DEMO_USERS.Client, password: DEMO_PASSWORD, onPhone: true },
];

const AREA_ROLES: Record<Area, readonly Role[]> = {
  signedIn: ['Administrator', 'Manager', 'CellwiseHQ', 'CellwiseOS', 'Client'],
  engineering: ['Administrator', 'Manager', 'CellwiseHQ', 'CellwiseOS'],
  management: ['Administrator', 'Manager'],
  // canSeeJobDashboard (shared-auth/src/policy.ts).
  jobs: ['Administrator'],
};

const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
type Viewport = (typeof VIEWPORTS)[number];

interface RouteCase {
  path: string;
  area: Area;
  /** Where a user allowed in ends up, when not on `path` (a redirect of the specification). */
  lands?: string;
  /** A table column users act on: at desktop width its header must be on screen without scrolling the table. */
  actOn?: string;
}

/** The route table of specification §2, signed-in part. */
const SIGNED_IN_ROUTES: readonly RouteCase[] = [
  { path: '/', area: 'signedIn', lands: '/home' },
  { path: '/home', area: 'signedIn' },
  { path: '/planning/parameterplanning', area: 'engineering' },
  { path: '/tracking/commissioningplan', area: 'engineering' },
  { path: '/tracking/tracker', area: 'engineering' },
  // Issue 16: the delta's Action column is what users act on.
  { path: '/tracking/workorderstatus', area: 'engineering', actOn: 'Action' },
  { path: '/validation/cpichvalidation', area: 'engineering' },
  { path: '/validation/nbrRelationsValidation', area: 'engineering' },
  { path: '/validation/ranshareNbrRelationsValidation', area: 'engineering' },
  { path: '/validation/healthChecks', area: 'engineering' },
  { path: '/optimization/nbrRelationsOptimization', area: 'engineering' },
  { path: '/monitoring/uploadLogs', area: 'engineering' },
  { path: '/monitoring/faultManagement', area: 'engineering' },
  { path: '/monitoring/configurationManagement', area: 'engineering' },
  { path: '/monitoring/overallSiteSummary', area: 'engineering' },
  { path: '/monitoring/siteReport', area: 'engineering' },
  // §6: the route is open to any authenticated user, only its menu entry is not.
  { path: '/dashboards/dashboardRollout', area: 'signedIn' },
  { path: '/management/operators', area: 'management' },
  // §2: with no tab it redirects to the operator grid; from a bookmark there is no operator in state.
  { path: '/management/operators/details', area: 'management', lands: '/management/operators' },
  { path: '/management/operators/details/overview', area: 'management' },
  { path: '/management/users', area: 'management' },
  { path: '/management/jobs', area: 'jobs' },
  { path: '/management/settings/general', area: 'signedIn' },
  { path: '/management/settings/security', area: 'signedIn' },
  { path: '/notifications', area: 'signedIn' },
  { path: '/errors/error-401', area: 'signedIn' },
  { path: '/errors/error-404', area: 'signedIn' },
  { path: '/errors/error-500', area: 'signedIn' },
];

/** The public pages (§2), visited signed out. */
const PUBLIC_ROUTES = [
  '/auth/login',
  '/auth/recover',
  '/auth/resetpassword',
  '/auth/recoverconfirmation',
  '/auth/completeregistration',
  '/errors/error-401',
  '/errors/error-404',
  '/errors/error-500',
];

/** A toast must sit in the bottom right (§9): inside the screen, its right edge this close to the screen's, its middle in the lower half. */
const TOAST_EDGE_PX = 64;

// ---------------------------------------------------------------------------------------------
// In-page probes (run in the browser: no closures over test code).

/** Recorded by the init script: every toast that appeared, where it settled. */
interface ToastSeen {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
  vw: number;
  vh: number;
}

declare global {
  interface Window {
    __walkToasts?: ToastSeen[];
  }
}

/** How long a page may take to settle before the walk says so. */
const QUIET_LIMIT_MS = 20_000;

declare global {
  interface Window {
    __walkCalls?: { pending: Map<object, string>; last: number };
  }
}

/**
 * Installed before any page script: counts the page's calls (XMLHttpRequest, which the API client
 * uses, and fetch) and the code it loads, from the page itself, where an end is never missed.
 */
function watchCalls(): void {
  const calls = { pending: new Map<object, string>(), last: Date.now() };
  window.__walkCalls = calls;
  const begin = (key: object, what: string) => {
    calls.pending.set(key, what);
    calls.last = Date.now();
  };
  const end = (key: object) => {
    calls.pending.delete(key);
    calls.last = Date.now();
  };
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
    (this as XMLHttpRequest & { __what?: string }).__what = `${method} ${new URL(String(url), location.href).pathname}`;
    return (open as (...args: unknown[]) => void).call(this, method, url, ...rest);
  };
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    begin(this, (this as XMLHttpRequest & { __what?: string }).__what ?? 'XHR');
    this.addEventListener('loadend', () => end(this));
    return send.call(this, body);
  };
  // Code a route needs arrives as script (and style) elements, not as calls: a router transition keeps the
  // old page on screen until it has loaded, so the walk must wait for these too.
  new MutationObserver((records) => {
    for (const record of records)
      for (const node of Array.from(record.addedNodes)) {
        const src = node instanceof HTMLScriptElement ? node.src : node instanceof HTMLLinkElement && node.rel === 'stylesheet' ? node.href : '';
        if (!src) continue;
        begin(node, `GET ${new URL(src, location.href).pathname}`);
        node.addEventListener('load', () => end(node));
        node.addEventListener('error', () => end(node));
      }
  }).observe(document, { childList: true, subtree: true });
  const fetch = window.fetch;
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const key = {};
    const url = typeof input === 'string' || input instanceof URL ? String(input) : input.url;
    begin(key, `${init?.method ?? 'GET'} ${new URL(url, location.href).pathname}`);
    return fetch(input, init).finally(() => end(key));
  };
}

/** What the page is waiting for, how long it has had nothing to wait for, and whether a spinner is up. */
function callState(): { pending: string[]; idleMs: number; spinning: boolean } {
  const calls = window.__walkCalls;
  // The start frame (boot-frame.html) and its spinner stay up until the console has drawn its page: the
  // session's first call can be over while the console is still drawing (and redirecting) behind it.
  const started = (document.getElementById('root')?.hasChildNodes() ?? false) && document.getElementById('cw-boot') === null;
  const spinning = !started || Array.from(document.querySelectorAll('.ant-spin-spinning')).some((el) => el.checkVisibility());
  if (!calls) return { pending: [], idleMs: 0, spinning };
  return { pending: [...calls.pending.values()], idleMs: Date.now() - calls.last, spinning };
}

/** Installed before any page script: notes each toast once its entry motion is over. */
function watchToasts(): void {
  window.__walkToasts = [];
  const SELECTOR = '.ant-message-notice, .ant-notification-notice';
  const seen = new WeakSet<Element>();
  /**
   * A toast still sliding or fading is not where it settles: antd's motion classes on it or its wrapper,
   * or an animation or transition still running there (the Web Animations API sees CSS ones too; a slide
   * can go on after the classes are gone).
   */
  const moving = (el: Element) =>
    [el, el.parentElement].some(
      (e) => e !== null && (/-(appear|enter|leave)(-|\b)/.test(String(e.className)) || e.getAnimations().some((a) => a.playState === 'running')),
    );
  const leaving = (el: Element) => [el, el.parentElement].some((e) => e && /-leave(-|\b)/.test(String(e.className)));
  const note = (el: Element) => {
    if (seen.has(el)) return;
    seen.add(el);
    const started = Date.now();
    let previous = '';
    /**
     * The last place it was seen without a motion class once its entry motion had begun: antd adds the
     * class a frame after the toast is inserted, so a first look can find it at rest where the motion
     * starts (off its place), and a busy machine may not look again before giving up.
     */
    let calm: DOMRect | null = null;
    let sawMotion = false;
    /** Never seen at rest (the page was busy all along): where it stands without the translation its motion adds. */
    const withoutMotion = (toast: Element, box: DOMRect): DOMRect => {
      let dx = 0;
      let dy = 0;
      for (const e of [toast, toast.parentElement]) {
        const transform = e ? getComputedStyle(e).transform : 'none';
        if (transform === 'none') continue;
        const m = new DOMMatrixReadOnly(transform);
        dx += m.m41;
        dy += m.m42;
      }
      return new DOMRect(box.left - dx, box.top - dy, box.width, box.height);
    };
    const settle = () => {
      if (!el.isConnected) return;
      const current = el.getBoundingClientRect();
      const where = `${current.left},${current.top},${current.right},${current.bottom}`;
      const inMotion = moving(el);
      // Settled: its entry motion seen and over, and where it was a moment ago (a slide moves it without a
      // class). On a busy machine two clean-clone runs recorded the toast 64 px right of where their
      // screenshots show it at rest; looks taken before any motion was seen are not trusted.
      const still = sawMotion && !inMotion && where === previous;
      previous = where;
      if (inMotion) sawMotion = true;
      else if (sawMotion) calm = current;
      // A busy page may check again only once the toast's time is up and it slides out: where it sat
      // before it left (or before the time ran out) is where it settled, not a point of its exit.
      const gaveUp = leaving(el) || Date.now() - started >= 3_000;
      if (!still && !gaveUp) {
        setTimeout(settle, 100);
        return;
      }
      const r = still ? current : (calm ?? withoutMotion(el, current));
      if (r.width === 0 || r.height === 0) return;
      window.__walkToasts!.push({
        text: (el.textContent ?? '').trim().slice(0, 80),
        left: r.left,
        right: r.right,
        top: r.top,
        bottom: r.bottom,
        vw: document.documentElement.clientWidth,
        vh: window.innerHeight,
      });
    };
    setTimeout(settle, 100);
  };
  new MutationObserver((records) => {
    for (const record of records)
      for (const node of Array.from(record.addedNodes)) {
        if (!(node instanceof Element)) continue;
        if (node.matches(SELECTOR)) note(node);
        node.querySelectorAll(SELECTOR).forEach(note);
      }
  }).observe(document, { childList: true, subtree: true });
}

/**
 * Elements that stick out of the viewport sideways without a scroll container of their own to hold them,
 * and elements that stick out of their card (a control drawn across the card's edge fits the screen and
 * still looks broken).
 */
function overflowProbe(): string[] {
  const vw = document.documentElement.clientWidth;
  const describe = (el: Element) => {
    const id = el.id ? `#${el.id}` : '';
    const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).slice(0, 2).join('.')}` : '';
    const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    const r = el.getBoundingClientRect();
    return `${el.tagName.toLowerCase()}${id}${cls} "${text}" spans ${Math.round(r.left)}..${Math.round(r.right)} px`;
  };
  /**
   * Whether an ancestor below `limit` (<body> when none) clips or scrolls sideways (the element is then
   * inside a scroll area, not overflowing the page or the card).
   */
  const clips = new Map<Element, boolean>();
  const clipped = (el: Element, limit: Element = document.body) => {
    for (let p = el.parentElement; p && p !== limit && p !== document.body && p !== document.documentElement; p = p.parentElement) {
      // Remembered per ancestor: a wide table's hundreds of cells share the few containers above them.
      let clipping = clips.get(p);
      if (clipping === undefined) {
        const style = getComputedStyle(p);
        clipping = style.overflowX !== 'visible' || style.contain.includes('paint');
        clips.set(p, clipping);
      }
      if (clipping) return true;
    }
    return false;
  };
  const out: { el: Element; card: Element | null }[] = [];
  for (const el of Array.from(document.body.querySelectorAll('*'))) {
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) continue;
    let card: Element | null = null;
    if (r.right <= vw + 1 && r.left >= -1) {
      card = el.parentElement?.closest('.ant-card') ?? null;
      if (!card) continue;
      const c = card.getBoundingClientRect();
      if (r.right <= c.right + 1 && r.left >= c.left - 1) continue;
    }
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    if (clipped(el, card ?? document.body)) continue;
    // Report the outermost: a child of an element already reported adds nothing.
    if (out.some((o) => o.el.contains(el))) continue;
    out.push({ el, card });
  }
  const problems = out
    .slice(0, 3)
    .map(({ el, card }) =>
      card
        ? `wider than its card "${(card.querySelector('.ant-card-head-title')?.textContent ?? '').trim()}": ${describe(el)}`
        : `wider than the ${vw} px viewport: ${describe(el)}`,
    );
  const scrollWidth = document.documentElement.scrollWidth;
  if (scrollWidth > vw + 1 && problems.length === 0) problems.push(`the document scrolls sideways: ${scrollWidth} px wide in a ${vw} px viewport`);
  return problems;
}

/** Controls on screen whose middle is under a fixed layer (a banner, an overlay) that is not their own. */
function coveredProbe(): string[] {
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  const CONTROLS = 'a[href], button, input, select, textarea, [role="button"], [role="tab"], [role="menuitem"], .ant-menu-item, .ant-menu-submenu-title';
  const describe = (el: Element) => {
    const label = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 30);
    return `${el.tagName.toLowerCase()} "${label}"`;
  };
  const fixedLayerOf = (el: Element | null): Element | null => {
    for (let p = el; p; p = p.parentElement) if (getComputedStyle(p).position === 'fixed') return p;
    return null;
  };
  const byLayer = new Map<Element, string[]>();
  for (const el of Array.from(document.querySelectorAll(CONTROLS))) {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    if (x < 0 || x >= vw || y < 0 || y >= vh) continue;
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    // A control that is itself on a fixed layer (the banner's button, a toast's close) is on top by design.
    if (fixedLayerOf(el)) continue;
    const hit = document.elementFromPoint(x, y);
    if (!hit || el.contains(hit) || hit.contains(el)) continue;
    const layer = fixedLayerOf(hit);
    // The cookie banner lies over the page's bottom until agreed (issue 47 item 9); what it promises is that
    // nothing stays hidden under it once scrolled to the end, which ux-fixes.spec (7) checks.
    if (!layer || layer.getAttribute('aria-label') === 'Cookie consent') continue;
    byLayer.set(layer, [...(byLayer.get(layer) ?? []), describe(el)]);
  }
  return [...byLayer].map(([layer, controls]) => {
    const name = layer.getAttribute('aria-label') ?? layer.getAttribute('role') ?? `${layer.tagName.toLowerCase()}.${String(layer.className).split(/\s+/)[0]}`;
    return `${controls.length} control(s) under the fixed layer "${name}": ${controls.slice(0, 4).join(', ')}`;
  });
}

/** Open popovers, dropdowns, drawers and select lists that do not fit in the viewport. */
function floatingProbe(): string[] {
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  const FLOATING =
    '.ant-popover:not(.ant-popover-hidden), .ant-dropdown:not(.ant-dropdown-hidden), .ant-select-dropdown:not(.ant-select-dropdown-hidden), .ant-drawer-content-wrapper, .ant-tooltip:not(.ant-tooltip-hidden)';
  const problems: string[] = [];
  for (const el of Array.from(document.querySelectorAll(FLOATING))) {
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1) {
      const kind = String(el.className).split(/\s+/)[0];
      const title = (el.querySelector('.ant-popover-title, .ant-drawer-title')?.textContent ?? el.textContent ?? '').trim().slice(0, 30);
      problems.push(
        `${kind} "${title}" outside the ${vw}×${vh} viewport: left ${Math.round(r.left)}, top ${Math.round(r.top)}, right ${Math.round(r.right)}, bottom ${Math.round(r.bottom)}`,
      );
    }
  }
  return problems;
}

/** Whether a table's column header is on screen: inside the viewport and inside the table's visible part (not scrolled away). */
function columnOnScreen(title: string): string | null {
  const vw = document.documentElement.clientWidth;
  const headers = Array.from(document.querySelectorAll('.ant-table-thead th')).filter((th) => th.checkVisibility() && th.textContent?.trim() === title);
  if (headers.length === 0) return `no column "${title}"`;
  for (const th of headers) {
    const r = th.getBoundingClientRect();
    const holder = th.closest('.ant-table-header, .ant-table-content, .ant-table-container');
    const box = holder?.getBoundingClientRect() ?? { left: 0, right: vw };
    if (r.left >= Math.max(0, box.left) - 1 && r.right <= Math.min(vw, box.right) + 1) return null;
  }
  return `the "${title}" column is off screen at ${vw} px (the table must be scrolled sideways to see it)`;
}

/** Menu labels cut by the menu's width, with whether they carry a title to read them by. */
function truncatedMenuLabels(): Array<{ index: number; text: string; titled: boolean }> {
  const labels = Array.from(document.querySelectorAll('.ant-menu-title-content')).filter((el) => el.checkVisibility());
  return labels.flatMap((el, index) => {
    const cut = [el, ...Array.from(el.querySelectorAll('*'))].some((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible');
    if (!cut) return [];
    const text = (el.textContent ?? '').trim();
    const titled = [el, ...Array.from(el.querySelectorAll('[title]')), el.closest('[title]')].some((e) => e?.getAttribute('title')?.trim() === text);
    return [{ index, text, titled }];
  });
}

// ---------------------------------------------------------------------------------------------
// Test machinery.

// The walks are independent (a context each) and the file's longest part: they spread over the workers,
// each worker with its own console and sign-ins.
test.describe.configure({ mode: 'parallel' });

let app: RunningConsole;
const tokens = new Map<Role, string>();

test.beforeAll(async ({ request }) => {
  app = await startConsole();
  // One sign-in per role for the whole walk: the sessions are reused by every visit.
  for (const { role, email, password } of ROLES) {
    const res = await request.post(`${app.url}/api/auth/login`, { data: { email, password } });
    expect(res.status(), `sign-in of ${role}`).toBe(200);
    tokens.set(role, ((await res.json()) as { token: string }).token);
  }
});
test.afterAll(async () => {
  await app?.stop();
});

/** Everything one walker notices: page errors, console errors, failed requests, and what the probes found. */
class Walk {
  readonly problems: string[] = [];
  private where = '(start)';
  private deniedHere = false;

  constructor(readonly page: Page) {
    page.on('pageerror', (error) => this.note(`page error: ${error.message.split('\n')[0]}`));
    page.on('console', (message) => {
      // A failed load is reported once, by the response it got (below).
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) this.note(`console error: ${message.text().slice(0, 200)}`);
    });
    page.on('requestfailed', (request) => {
      const error = request.failure()?.errorText ?? '';
      // Leaving a page cancels what it still had in flight; that is the browser, not a failure.
      if (error !== 'net::ERR_ABORTED') this.note(`request failed: ${request.method()} ${pathOf(request.url())} (${error})`);
    });
    page.on('response', (response) => {
      const status = response.status();
      if (status < 400) return;
      // A route the role may not open may be refused by the API; nothing else may fail.
      if (this.deniedHere && (status === 401 || status === 403)) return;
      this.note(`${status} from ${response.request().method()} ${pathOf(response.url())}`);
    });
  }

  at(where: string, denied: boolean): void {
    this.where = where;
    this.deniedHere = denied;
  }

  note(problem: string): void {
    const line = `${this.where}: ${problem}`;
    // The same finding at the top and at the bottom of a page is one finding.
    if (!this.problems.includes(line)) this.problems.push(line);
  }

  /**
   * Waits until the page has settled: no call of its own in flight for a moment (counted in the page,
   * see watchCalls; the hub's WebSocket is not one) and no spinner (a remote's code still loading).
   */
  async quiet(): Promise<void> {
    const deadline = Date.now() + QUIET_LIMIT_MS;
    let state = await this.page.evaluate(callState);
    while (Date.now() < deadline) {
      if (state.pending.length === 0 && state.idleMs > 150 && !state.spinning) break;
      await this.page.waitForTimeout(50);
      state = await this.page.evaluate(callState);
    }
    if (state.pending.length > 0) this.note(`still waiting for ${state.pending.join(', ')} after ${QUIET_LIMIT_MS / 1000} s`);
    else if (state.spinning) this.note(`still loading (a spinner) after ${QUIET_LIMIT_MS / 1000} s`);
    // Entry motions (antd's fades and slides) are done by then.
    await this.page.waitForTimeout(100);
  }

  async probe(fn: () => string[]): Promise<void> {
    for (const problem of await this.page.evaluate(fn)) this.note(problem);
  }

  async toasts(): Promise<number> {
    const seen = await this.page.evaluate(() => {
      const list = window.__walkToasts ?? [];
      window.__walkToasts = [];
      return list;
    });
    for (const t of seen) {
      // On a phone a toast spans most of the width, so its right edge (not its middle) tells where it sits.
      const bottomRight = t.left >= -1 && t.right >= t.vw - TOAST_EDGE_PX && t.right <= t.vw + 1 && t.bottom <= t.vh + 1 && (t.top + t.bottom) / 2 > t.vh / 2;
      if (!bottomRight)
        this.note(
          `toast "${t.text}" is not in the bottom right: left ${Math.round(t.left)}, top ${Math.round(t.top)}, right ${Math.round(t.right)}, bottom ${Math.round(t.bottom)} of ${t.vw}×${t.vh}`,
        );
    }
    return seen.length;
  }
}

function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname;
}

const slug = (route: string) => route.replace(/^\//, '').replace(/[^A-Za-z0-9]+/g, '-') || 'root';

/**
 * Opens a route: the first by a full load (as a bookmark does), the others as the console's own links
 * do (history push, which the router follows), so each visit costs the page and not the console's start.
 */
async function visit(page: Page, route: string, fullLoad: boolean): Promise<void> {
  if (fullLoad) {
    await page.goto(app.url + route);
    return;
  }
  await page.evaluate((target) => {
    // The page counts as busy from here: the router starts its work a moment after the push.
    if (window.__walkCalls) window.__walkCalls.last = Date.now();
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, route);
}

async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
}

/**
 * Waits until an element stops moving (antd zooms and slides popovers in: measured mid-motion, they look
 * smaller than they are): no motion class, and the same box in three looks, each after two frames. Two
 * quick looks alike were not enough on a busy machine: a clean-clone run measured a phone-size popover
 * below its button, past the screen's bottom, where antd places it above once it is aligned.
 */
async function settled(element: Locator): Promise<void> {
  let previous = '';
  let alike = 0;
  for (let i = 0; i < 60; i++) {
    const look = await element.evaluate(
      (el) =>
        new Promise<string>((resolve) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() => {
              const r = el.getBoundingClientRect();
              resolve(/-(appear|enter|leave)(-|\b)/.test(String(el.className)) ? 'moving' : `${r.left},${r.top},${r.width},${r.height}`);
            }),
          ),
        ),
    );
    alike = look !== 'moving' && look === previous ? alike + 1 : 0;
    if (alike >= 2) return;
    previous = look;
    await element.page().waitForTimeout(50);
  }
}

/** Opens one floating element with `open`, checks it fits, keeps a picture, closes it with Escape. */
async function openAndCheck(walk: Walk, testInfo: TestInfo, name: string, open: () => Promise<void>, visible: string): Promise<void> {
  const { page } = walk;
  await open();
  const floating = page.locator(visible).last();
  try {
    await floating.waitFor({ state: 'visible', timeout: 3_000 });
  } catch {
    walk.note(`${name} did not open`);
    return;
  }
  await settled(floating);
  await walk.probe(floatingProbe);
  await shot(page, testInfo, name);
  await page.keyboard.press('Escape');
  await floating.waitFor({ state: 'hidden', timeout: 3_000 }).catch(() => undefined);
}

/** Every group of the side menu (or the phone's drawer) unfolded, then each cut label must show its full text on hover. */
async function checkMenuLabels(walk: Walk, menu: string): Promise<void> {
  const { page } = walk;
  const root = page.locator(menu).first();
  const submenus = root.locator(':scope > .ant-menu-submenu:not(.ant-menu-submenu-disabled)');
  for (let i = 0; i < (await submenus.count()); i++) {
    const submenu = submenus.nth(i);
    if (!(await submenu.getAttribute('class'))?.includes('ant-menu-submenu-open')) await submenu.locator('.ant-menu-submenu-title').click();
  }
  await page.waitForTimeout(400);
  const cut = await page.evaluate(truncatedMenuLabels);
  const labels = page.locator('.ant-menu-title-content').filter({ visible: true });
  for (const label of cut) {
    if (label.titled) continue;
    await labels.nth(label.index).hover();
    const tip = page.locator('.ant-tooltip:not(.ant-tooltip-hidden)').filter({ hasText: label.text });
    const shown = await tip
      .first()
      .waitFor({ state: 'visible', timeout: 1_500 })
      .then(() => true)
      .catch(() => false);
    if (!shown) walk.note(`menu label "${label.text}" is cut off and has no tooltip or title`);
  }
  await page.mouse.move(0, 0);
}

async function walkerFor(browser: Browser, viewport: Viewport, role: Role | null) {
  const storageState = role
    ? { cookies: [], origins: [{ origin: app.url, localStorage: [{ name: TOKEN_KEY, value: tokens.get(role)! }] }] }
    : { cookies: [], origins: [] };
  // No consent cookie: every user meets the banner first, and it must not hide what they came for.
  // Motion as most users see it (the other specs run with reduced motion): the toast and popover checks
  // wait for antd's motions to end.
  const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, storageState, reducedMotion: 'no-preference' });
  await context.addInitScript(watchToasts);
  await context.addInitScript(watchCalls);
  const page = await context.newPage();
  return { context, walk: new Walk(page) };
}

/** Checks of the page as it stands: sideways overflow and covered controls at the top and at the bottom of the page. */
async function checkPage(walk: Walk): Promise<void> {
  const { page } = walk;
  await walk.probe(overflowProbe);
  await walk.probe(coveredProbe);
  const scrolled = await page.evaluate(() => {
    const before = [window.scrollY, ...Array.from(document.querySelectorAll('.ant-layout-sider-children')).map((el) => el.scrollTop)];
    window.scrollTo(0, document.documentElement.scrollHeight);
    document.querySelectorAll('.ant-layout-sider-children').forEach((el) => el.scrollTo(0, el.scrollHeight));
    const after = [window.scrollY, ...Array.from(document.querySelectorAll('.ant-layout-sider-children')).map((el) => el.scrollTop)];
    return after.some((y, i) => y !== before[i]);
  });
  // A page that fits the screen shows nothing new at its end.
  if (scrolled) await walk.probe(coveredProbe);
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** The content's own dropdowns (more-options menus) and select lists, each opened and checked. */
async function checkContentFloating(walk: Walk, testInfo: TestInfo, name: string, tablePopovers: boolean): Promise<void> {
  const { page } = walk;
  // The shared table's own popovers are one component wherever they are: opened on the first table met.
  const tools = page
    .locator('.ant-layout-content .cw-data-table')
    .first()
    .getByRole('button', { name: /^(Columns|Saved filters) of / });
  if (tablePopovers)
    for (let i = 0; i < (await tools.count()); i++)
      await openAndCheck(walk, testInfo, `${name}-table-popover-${i + 1}`, () => tools.nth(i).click(), '.ant-popover:not(.ant-popover-hidden)');
  // Column filters are the shared table's, opened by its own tests; these are the page's menus.
  const triggers = page.locator('.ant-layout-content .ant-dropdown-trigger:not(.ant-table-filter-trigger)').filter({ visible: true });
  for (let i = 0; i < (await triggers.count()); i++)
    await openAndCheck(walk, testInfo, `${name}-dropdown-${i + 1}`, () => triggers.nth(i).click(), '.ant-dropdown:not(.ant-dropdown-hidden)');
  const selects = page.locator('.ant-layout-content .ant-select:not(.ant-select-disabled)').filter({ visible: true });
  for (let i = 0; i < (await selects.count()); i++)
    await openAndCheck(walk, testInfo, `${name}-select-${i + 1}`, () => selects.nth(i).click(), '.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
}

test('the walk covers every route the remotes declare', () => {
  const declared: string[] = [];
  for (const remote of ['mfe-tracking', 'mfe-planning-validation', 'mfe-monitoring', 'mfe-management']) {
    const source = fs.readFileSync(path.join(REPO_ROOT, remote, 'src/manifest.tsx'), 'utf8');
    for (const match of source.matchAll(/path:\s*'([^']+)'/g)) declared.push(match[1]!.replace(/\/:[^/]+\?$/, ''));
  }
  expect(declared.length).toBeGreaterThan(15);
  const walked = SIGNED_IN_ROUTES.map((r) => r.path);
  expect([...new Set(declared)].filter((p) => !walked.includes(p))).toEqual([]);
});

for (const viewport of VIEWPORTS) {
  for (const { role, opensMenus } of ROLES.filter((r) => viewport.name === 'desktop' || r.onPhone)) {
    test(`${role} at ${viewport.width}×${viewport.height}: every route`, async ({ browser }, testInfo) => {
      test.setTimeout(180_000);
      const { context, walk } = await walkerFor(browser, viewport, role);
      const { page } = walk;
      const prefix = `${viewport.name}-${role}`;
      let tablePopoversSeen = false;
      try {
        for (const route of SIGNED_IN_ROUTES) {
          const allowed = AREA_ROLES[route.area].includes(role);
          walk.at(route.path, !allowed);
          await visit(page, route.path, route === SIGNED_IN_ROUTES[0]);
          await walk.quiet();
          const expected = allowed ? (route.lands ?? route.path) : '/errors/error-401';
          const landed = pathOf(page.url());
          if (landed !== expected) walk.note(`landed on ${landed}, expected ${expected}`);
          await shot(page, testInfo, `${prefix}-${slug(route.path)}`);
          if (allowed && route.actOn && viewport.name === 'desktop') {
            const problem = await page.evaluate(columnOnScreen, route.actOn);
            if (problem) walk.note(problem);
          }
          await checkPage(walk);
          // The page's own menus are the same for every role that may open it; the Administrator may open every page and sees every control.
          if (opensMenus) {
            await checkContentFloating(walk, testInfo, `${prefix}-${slug(route.path)}`, !tablePopoversSeen);
            tablePopoversSeen ||= (await page.locator('.ant-layout-content .cw-data-table').count()) > 0;
          }
          await walk.toasts();
        }

        // The top bar's popovers and menus, the side menu's labels, and where a toast shows.
        walk.at('/home (top bar)', false);
        await page.goto(app.url + '/home');
        await walk.quiet();
        await openAndCheck(
          walk,
          testInfo,
          `${prefix}-notifications-popover`,
          () => page.getByRole('button', { name: /^Notifications/ }).click(),
          '.ant-popover:not(.ant-popover-hidden)',
        );
        const headerMenus = page.locator('.ant-layout-header .ant-dropdown-trigger').filter({ visible: true });
        for (let i = 0; i < (await headerMenus.count()); i++)
          await openAndCheck(walk, testInfo, `${prefix}-top-bar-menu-${i + 1}`, () => headerMenus.nth(i).click(), '.ant-dropdown:not(.ant-dropdown-hidden)');
        if (viewport.name === 'phone') {
          walk.at('/home (menu drawer)', false);
          await page.getByRole('button', { name: 'Open menu' }).click();
          const drawer = page.locator('.ant-drawer-content-wrapper');
          await drawer.waitFor({ state: 'visible' });
          await checkMenuLabels(walk, '.ant-drawer .ant-menu-root');
          await settled(drawer);
          await walk.probe(floatingProbe);
          await shot(page, testInfo, `${prefix}-menu-drawer`);
          await page.keyboard.press('Escape');
          await drawer.waitFor({ state: 'hidden' });
        } else {
          walk.at('/home (side menu)', false);
          await checkMenuLabels(walk, '.ant-layout-sider .ant-menu-root');
          await shot(page, testInfo, `${prefix}-side-menu`);
        }

        // A toast of the user's own doing: saving the profile unchanged.
        walk.at('/management/settings/general (save)', false);
        await page.goto(app.url + '/management/settings/general');
        await walk.quiet();
        await page.getByRole('button', { name: 'Save Changes' }).click();
        // Until the toast has settled where it stays (see watchToasts).
        await page.waitForFunction(() => (window.__walkToasts?.length ?? 0) > 0, undefined, { timeout: 8_000 }).catch(() => undefined);
        await shot(page, testInfo, `${prefix}-toast`);
        if ((await walk.toasts()) === 0) walk.note('saving the profile showed no toast');
      } finally {
        await context.close();
      }
      expect(walk.problems).toEqual([]);
    });
  }

  test(`signed out at ${viewport.width}×${viewport.height}: the public pages`, async ({ browser }, testInfo) => {
    test.setTimeout(60_000);
    const { context, walk } = await walkerFor(browser, viewport, null);
    const { page } = walk;
    try {
      for (const route of PUBLIC_ROUTES) {
        walk.at(route, false);
        await page.goto(app.url + route);
        await walk.quiet();
        if (pathOf(page.url()) !== route) walk.note(`landed on ${pathOf(page.url())}`);
        await shot(page, testInfo, `${viewport.name}-signed-out-${slug(route)}`);
        await checkPage(walk);
        await walk.toasts();
      }
    } finally {
      await context.close();
    }
    expect(walk.problems).toEqual([]);
  });
}
