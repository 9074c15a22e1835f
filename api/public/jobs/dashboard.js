// The job dashboard's page script (docs/architecture.md#how-a-job-flows). No framework and no inline script: the page's CSP is
// `script-src 'self'`. Browser objects are read from globalThis, so the file lints like any other .js.
const { document, history, location, sessionStorage, localStorage } = globalThis;

/** Where this tab keeps the token it was opened with, once it is gone from the address bar. */
const TAB_TOKEN_KEY = 'cellwiseJobDashboardToken';
/** The console's own session token (same origin): used when this tab has none. */
const CONSOLE_TOKEN_KEY = 'vdfptAppToken';
const PAGE_SIZE = 20;
const REFRESH_MS = 3000;
const ACTIVE = new Set(['queued', 'running']);
const STATE_LABELS = { queued: 'Queued', running: 'Running', succeeded: 'Succeeded', failed: 'Failed', cancelled: 'Cancelled' };

const $ = (id) => document.getElementById(id);

function read(storage, key) {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

function write(storage, key, value) {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
  } catch {
    // Storage refused (private mode, quota): the token lives in memory for this page only.
  }
}

/** Reads `access_token` from the address once, keeps it for this tab and takes it out of the address bar. */
function tokenFromAddress() {
  const url = new URL(location.href);
  if (!url.searchParams.has('access_token')) return null;
  const token = url.searchParams.get('access_token');
  url.searchParams.delete('access_token');
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  if (token) write(sessionStorage, TAB_TOKEN_KEY, token);
  return token || null;
}

let token = tokenFromAddress() ?? read(sessionStorage, TAB_TOKEN_KEY) ?? read(localStorage, CONSOLE_TOKEN_KEY);

/** Thrown when the page has been taken over by sign-in or the 403 notice: nothing more to do. */
class Stopped extends Error {}

function signIn() {
  location.assign('/auth/login');
  throw new Stopped('signing in');
}

/**
 * A call to the API with the session token as a bearer header. A refused token falls back to the
 * console's own once (the tab's may have expired while the console signed in again), then to sign-in.
 */
async function api(path, init = {}) {
  if (!token) signIn();
  const response = await fetch(path, {
    ...init,
    cache: 'no-store',
    headers: { Accept: 'application/json', Authorization: `Bearer ${token}`, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
  });
  if (response.status === 401) {
    write(sessionStorage, TAB_TOKEN_KEY, null);
    const consoleToken = read(localStorage, CONSOLE_TOKEN_KEY);
    if (consoleToken && consoleToken !== token) {
      token = consoleToken;
      return api(path, init);
    }
    signIn();
  }
  if (response.status === 403) {
    showDenied();
    throw new Stopped('forbidden');
  }
  const body = await response.json().catch(() => null);
  return { status: response.status, ok: response.ok, body };
}

// ---------------------------------------------------------------- formatting

const pad = (n) => String(n).padStart(2, '0');

/** DD-MM-YYYY HH:mm:ss in the browser's time zone, like every date of the console. */
function formatDate(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${pad(d.getDate())}-${pad(d.getMonth() + 1)}-${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** 850 ms, 1.6 s, 42 s, 2 min 5 s, 1 h 3 min. */
function formatDuration(ms) {
  if (ms === null || ms === undefined) return '';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = Math.floor(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function formatJson(value) {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

// ---------------------------------------------------------------- DOM helpers

/** An element with attributes (`on*` functions become listeners) and children; text is always text, never HTML. */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === 'class') element.className = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of nodes(...children)) {
    element.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child);
  }
  return element;
}

/** Children as `h` takes them (nested lists, null for nothing), as a flat list of nodes and strings. */
const nodes = (...children) => children.flat(Infinity).filter((child) => child !== null && child !== undefined && child !== false);

const muted = (text) => h('span', { class: 'muted' }, text);
const stateTag = (state) => h('span', { class: `tag tag-${state}` }, STATE_LABELS[state] ?? state);
/** What a job that ran to its end found, as its notification told it: only when that is not what its state says. */
const OUTCOME_LABELS = { warning: 'Warnings', error: 'Errors found' };
const outcomeTag = (job) =>
  job.state === 'succeeded' && OUTCOME_LABELS[job.outcome] ? h('span', { class: `tag tag-outcome-${job.outcome}` }, OUTCOME_LABELS[job.outcome]) : null;
const stateTags = (job) => h('span', { class: 'state-tags' }, stateTag(job.state), outcomeTag(job));

function progressOf(job) {
  const bar = h('span', { class: 'progress-bar' });
  // Through the CSSOM: the CSP allows no style attributes.
  bar.style.width = `${job.progress}%`;
  return h(
    'span',
    { class: 'progress' },
    h(
      'span',
      {
        class: 'progress-track',
        role: 'progressbar',
        'aria-valuemin': 0,
        'aria-valuemax': 100,
        'aria-valuenow': job.progress,
        'aria-label': `${job.label} progress`,
      },
      bar,
    ),
    h('span', { class: 'progress-text' }, `${job.progress}%${job.progressText ? ` · ${job.progressText}` : ''}`),
  );
}

let messageTimer = null;

/** A short notice at the top of the page (`tone`: success, warning or error). */
function showMessage(text, tone = 'success') {
  const box = $('message');
  box.className = `message message-${tone}`;
  box.textContent = text;
  box.hidden = false;
  clearTimeout(messageTimer);
  messageTimer = setTimeout(() => (box.hidden = true), 8000);
}

function showDenied() {
  stopRefresh();
  $('board').hidden = true;
  $('denied').hidden = false;
  if ($('details').open) $('details').close();
}

// ---------------------------------------------------------------- confirmation

/** Asks with the page's own modal (keyboard: Tab between the buttons, Escape keeps the job). */
function confirmAction(title, text, yesLabel) {
  const dialog = $('confirm');
  $('confirm-title').textContent = title;
  $('confirm-text').textContent = text;
  const yes = dialog.querySelector('[data-answer="yes"]');
  yes.textContent = yesLabel;
  return new Promise((resolve) => {
    const answer = (event) => {
      const button = event.target.closest('[data-answer]');
      if (button) dialog.close(button.dataset.answer);
    };
    dialog.addEventListener('click', answer);
    dialog.addEventListener(
      'close',
      () => {
        dialog.removeEventListener('click', answer);
        resolve(dialog.returnValue === 'yes');
      },
      { once: true },
    );
    dialog.returnValue = '';
    dialog.showModal();
    yes.focus();
  });
}

async function act(job, action) {
  const retry = action === 'retry';
  const ok = await confirmAction(
    retry ? 'Retry job?' : 'Cancel job?',
    retry ? `“${job.label}” will be queued and run again.` : `“${job.label}” has not started yet and will not run.`,
    retry ? 'Retry' : 'Cancel job',
  );
  if (!ok) return;
  try {
    const answer = await api(retry ? '/api/Jobs/RetryJob' : '/api/Jobs/CancelJob', { method: 'POST', body: JSON.stringify({ id: job.id }) });
    const text = answer.body?.message ?? (answer.ok ? 'Done.' : `The request failed (${answer.status}).`);
    showMessage(text, answer.ok ? 'success' : 'warning');
  } catch (error) {
    if (error instanceof Stopped) return;
    showMessage('The server could not be reached. Please try again.', 'error');
  }
  await load();
  if (view.openId === job.id) await loadDetails(job.id);
}

function actionButtons(job) {
  return [
    job.retryable ? h('button', { type: 'button', class: 'button small', onclick: () => act(job, 'retry') }, 'Retry') : null,
    job.cancellable ? h('button', { type: 'button', class: 'button small danger', onclick: () => act(job, 'cancel') }, 'Cancel') : null,
  ];
}

// ---------------------------------------------------------------- the list

const view = { state: '', kind: '', page: 1, total: 0, rows: [], kinds: [], openId: null, openJob: null, timer: null, sequence: 0 };

function renderKinds(kinds) {
  const select = $('filter-kind');
  const same = kinds.length === view.kinds.length && kinds.every((k, i) => k.kind === view.kinds[i].kind && k.label === view.kinds[i].label);
  if (same) return;
  view.kinds = kinds;
  select.replaceChildren(h('option', { value: '' }, 'All kinds'), ...kinds.map((k) => h('option', { value: k.kind }, k.label)));
  select.value = view.kind;
}

/** Where the keyboard is in the table (a row, or one of its buttons), so a redraw can put it back. */
function tableFocus() {
  const active = document.activeElement;
  const row = active?.closest?.('.job-row');
  if (!row) return null;
  return { id: row.dataset.jobId, button: [...row.querySelectorAll('button')].indexOf(active) };
}

function restoreTableFocus(focus) {
  if (!focus) return;
  const row = [...document.querySelectorAll('.job-row')].find((r) => r.dataset.jobId === focus.id);
  if (!row) return;
  (row.querySelectorAll('button')[focus.button] ?? row).focus({ preventScroll: true });
}

function renderRows() {
  const focus = tableFocus();
  drawRows();
  // The list refreshes itself every 3 s: someone moving through it with the keyboard stays where they were.
  restoreTableFocus(focus);
}

function drawRows() {
  const body = $('rows');
  if (view.rows.length === 0) {
    const filtered = view.state !== '' || view.kind !== '';
    body.replaceChildren(h('tr', { class: 'placeholder' }, h('td', { colspan: 11 }, filtered ? 'No job matches these filters.' : 'No jobs yet.')));
    return;
  }
  body.replaceChildren(
    ...view.rows.map((job) =>
      h(
        'tr',
        {
          class: `job-row${job.id === view.openId ? ' selected' : ''}`,
          tabindex: 0,
          'data-job-id': job.id,
          'aria-label': `${job.label}, ${STATE_LABELS[job.state] ?? job.state}${outcomeTag(job) ? ` (${OUTCOME_LABELS[job.outcome].toLowerCase()})` : ''}: press Enter for details`,
          onclick: (event) => {
            if (!event.target.closest('button')) openDetails(job.id);
          },
          onkeydown: (event) => {
            if (event.key === 'Enter' && event.target === event.currentTarget) {
              event.preventDefault();
              openDetails(job.id);
            }
          },
        },
        h('td', { 'data-label': 'Job', class: 'cell-job' }, h('span', { class: 'job-label' }, job.label), h('span', { class: 'job-kind' }, job.kind)),
        h('td', { 'data-label': 'Owner' }, job.owner ?? muted('system')),
        h('td', { 'data-label': 'Operator' }, job.operator ?? muted('—')),
        h('td', { 'data-label': 'State' }, stateTags(job)),
        h(
          'td',
          { 'data-label': 'Progress', class: `cell-progress${job.state === 'running' ? '' : ' idle'}` },
          job.state === 'running' ? progressOf(job) : muted('—'),
        ),
        h('td', { 'data-label': 'Queued', class: 'cell-date' }, formatDate(job.createdAt)),
        h('td', { 'data-label': 'Started', class: 'cell-date' }, formatDate(job.startedAt) || muted('—')),
        h('td', { 'data-label': 'Finished', class: 'cell-date' }, formatDate(job.finishedAt) || muted('—')),
        h('td', { 'data-label': 'Duration', class: 'cell-duration' }, formatDuration(job.durationMs) || muted('—')),
        h('td', { 'data-label': 'Error', class: 'cell-error', title: job.error ?? null }, job.error),
        h(
          'td',
          { class: 'cell-actions' },
          h(
            'span',
            { class: 'actions' },
            h('button', { type: 'button', class: 'button small', onclick: () => openDetails(job.id) }, 'Details'),
            actionButtons(job),
          ),
        ),
      ),
    ),
  );
}

function renderPager() {
  const pages = Math.max(1, Math.ceil(view.total / PAGE_SIZE));
  const first = view.total === 0 ? 0 : (view.page - 1) * PAGE_SIZE + 1;
  const last = Math.min(view.total, view.page * PAGE_SIZE);
  $('page-info').textContent = `${first}–${last} of ${view.total} job${view.total === 1 ? '' : 's'} · page ${view.page} of ${pages}`;
  $('previous').disabled = view.page <= 1;
  $('next').disabled = view.page >= pages;
}

function stopRefresh() {
  clearTimeout(view.timer);
  view.timer = null;
}

/** Every 3 s while a job on this page (or the one in the details) is queued or running. */
function scheduleRefresh() {
  stopRefresh();
  const active = view.rows.some((job) => ACTIVE.has(job.state)) || (view.openJob !== null && ACTIVE.has(view.openJob.state));
  $('updated').textContent = `Updated ${formatDate(new Date().toISOString()).slice(11)}${active ? ' · refreshing every 3 s' : ''}`;
  if (!active) return;
  view.timer = setTimeout(async () => {
    if (document.hidden) return scheduleRefresh();
    await load();
    if (view.openId !== null && view.openJob && ACTIVE.has(view.openJob.state)) await loadDetails(view.openId);
  }, REFRESH_MS);
}

async function load() {
  const sequence = ++view.sequence;
  const query = new URLSearchParams({ page: String(view.page), size: String(PAGE_SIZE) });
  if (view.state) query.set('state', view.state);
  if (view.kind) query.set('kind', view.kind);
  let answer;
  try {
    answer = await api(`/api/Jobs/GetJobs?${query}`);
  } catch (error) {
    if (error instanceof Stopped) return;
    showMessage('The server could not be reached; retrying…', 'error');
    view.timer = setTimeout(load, REFRESH_MS);
    return;
  }
  // An older answer that arrives after a newer one (a filter changed meanwhile) is dropped.
  if (sequence !== view.sequence) return;
  if (!answer.ok) {
    showMessage(answer.body?.message ?? `The jobs could not be loaded (${answer.status}).`, 'error');
    return;
  }
  const { rows, total, kinds } = answer.body;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (view.page > pages) {
    // Jobs went away (retention) while this page was open: show the last page there is.
    view.page = pages;
    return load();
  }
  view.rows = rows;
  view.total = total;
  renderKinds(kinds);
  renderRows();
  renderPager();
  scheduleRefresh();
}

// ---------------------------------------------------------------- details

function timelineStep(label, iso, reached, tone) {
  return h(
    'li',
    { class: `step${reached ? ' reached' : ''}${tone ? ` step-${tone}` : ''}` },
    h('span', { class: 'step-dot', 'aria-hidden': 'true' }),
    h('span', { class: 'step-label' }, label),
    h('span', { class: 'step-time' }, reached ? formatDate(iso) : 'not yet'),
  );
}

function renderDetails({ job, params, outcome }) {
  $('details-title').textContent = job.label;
  const finishedLabel = job.state === 'cancelled' ? 'Cancelled' : job.state === 'failed' ? 'Failed' : 'Finished';
  const finishedTone = job.state === 'succeeded' ? 'succeeded' : job.state === 'failed' ? 'failed' : job.state === 'cancelled' ? 'cancelled' : null;
  const outcomeText = outcome ? formatJson(outcome.body) : '';
  $('details-body').replaceChildren(
    ...nodes(
      h('div', { class: 'details-state' }, stateTags(job), job.state === 'running' ? progressOf(job) : null),
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Id'),
        h('dd', { class: 'mono' }, job.id),
        h('dt', {}, 'Kind'),
        h('dd', {}, `${job.label} `, muted(`(${job.kind})`)),
        h('dt', {}, 'Owner'),
        h('dd', {}, job.owner ?? muted('system')),
        h('dt', {}, 'Operator'),
        h('dd', {}, job.operator ?? muted('—')),
        h('dt', {}, 'Attempts'),
        h('dd', {}, String(job.attempts)),
        h('dt', {}, 'Duration'),
        h('dd', {}, formatDuration(job.durationMs) || muted('—')),
      ),
      h('h3', {}, 'Timeline'),
      h(
        'ol',
        { class: 'timeline' },
        timelineStep('Created', job.createdAt, true, null),
        timelineStep('Started', job.startedAt, job.startedAt !== null, null),
        timelineStep(finishedLabel, job.finishedAt, job.finishedAt !== null, finishedTone),
      ),
      job.error ? [h('h3', {}, 'Error'), h('p', { class: 'error-text' }, job.error)] : null,
      h('h3', {}, 'Parameters'),
      h('pre', { class: 'json', tabindex: 0 }, formatJson(params) || 'none'),
      h('h3', {}, 'Outcome'),
      outcome
        ? [
            h('p', {}, 'Status ', h('span', { class: `status status-${Math.floor(outcome.status / 100)}xx` }, String(outcome.status))),
            outcomeText ? h('pre', { class: 'json', tabindex: 0 }, outcomeText) : null,
          ]
        : h('p', { class: 'muted' }, ACTIVE.has(job.state) ? 'Not finished yet.' : 'None recorded.'),
      job.retryable || job.cancellable ? h('div', { class: 'details-actions' }, actionButtons(job)) : null,
    ),
  );
}

async function loadDetails(id) {
  let answer;
  try {
    answer = await api(`/api/Jobs/GetJob?${new URLSearchParams({ id })}`);
  } catch (error) {
    if (error instanceof Stopped) return;
    showMessage('The server could not be reached. Please try again.', 'error');
    return;
  }
  if (view.openId !== id) return;
  if (!answer.ok) {
    $('details-body').replaceChildren(h('p', { class: 'error-text' }, answer.body?.message ?? `The job could not be loaded (${answer.status}).`));
    view.openJob = null;
    return;
  }
  view.openJob = answer.body.job;
  renderDetails(answer.body);
  scheduleRefresh();
}

/** What had the focus when the details opened: a row (found again by id, rows are redrawn) or a button. */
let returnFocusTo = null;

async function openDetails(id) {
  const dialog = $('details');
  const from = document.activeElement;
  returnFocusTo = { element: from, rowId: from?.closest?.('.job-row')?.dataset.jobId ?? id };
  view.openId = id;
  view.openJob = null;
  for (const row of document.querySelectorAll('.job-row')) row.classList.toggle('selected', row.dataset.jobId === id);
  $('details-title').textContent = 'Job';
  $('details-body').replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  if (!dialog.open) dialog.showModal();
  dialog.querySelector('[data-close]').focus();
  await loadDetails(id);
}

function closeDetails() {
  const dialog = $('details');
  if (dialog.open) dialog.close();
}

// ---------------------------------------------------------------- wiring

function start() {
  if (!token) signIn();

  $('filter-state').addEventListener('change', (event) => {
    view.state = event.target.value;
    view.page = 1;
    load();
  });
  $('filter-kind').addEventListener('change', (event) => {
    view.kind = event.target.value;
    view.page = 1;
    load();
  });
  $('filters').addEventListener('submit', (event) => event.preventDefault());
  $('refresh').addEventListener('click', () => load());
  $('previous').addEventListener('click', () => {
    view.page = Math.max(1, view.page - 1);
    load();
  });
  $('next').addEventListener('click', () => {
    view.page += 1;
    load();
  });

  const details = $('details');
  details.querySelector('[data-close]').addEventListener('click', closeDetails);
  // A click on the backdrop (the dialog itself, outside its content) closes it too.
  details.addEventListener('click', (event) => {
    if (event.target === details) closeDetails();
  });
  details.addEventListener('close', () => {
    view.openId = null;
    view.openJob = null;
    for (const row of document.querySelectorAll('.job-row.selected')) row.classList.remove('selected');
    const { element, rowId } = returnFocusTo ?? {};
    if (element && element !== document.body && document.contains(element)) element.focus();
    else {
      const rows = [...document.querySelectorAll('.job-row')];
      (rows.find((row) => row.dataset.jobId === rowId) ?? rows[0])?.focus();
    }
    scheduleRefresh();
  });

  document.addEventListener('visibilitychange', () => {
    if (!document.hidden && view.timer === null && view.rows.some((job) => ACTIVE.has(job.state))) load();
  });

  load();
}

try {
  start();
} catch (error) {
  if (!(error instanceof Stopped)) throw error;
}
