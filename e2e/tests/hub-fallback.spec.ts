import { expect, test } from '@playwright/test';
import { consoleForThisFile } from '../support/console';
import { DEMO_PASSWORD, DEMO_USERS, signInByToken } from '../support/session';

const app = consoleForThisFile();

/**
 * Operators' networks often run web proxies that refuse WebSocket upgrades. The console's hub client
 * (the official @microsoft/signalr) then falls back to Server-Sent Events, or to Long Polling where
 * streaming answers are cut too; the bell works the same on each.
 */
for (const blocked of [
  { what: 'WebSockets', fallback: 'ServerSentEvents', block: ['websocket'], user: DEMO_USERS.CellwiseOS },
  { what: 'WebSockets and streamed answers', fallback: 'LongPolling', block: ['websocket', 'eventsource'], user: DEMO_USERS.Manager },
]) {
  test(`with ${blocked.what} blocked, the bell still hears a new notification (${blocked.fallback})`, async ({ page }) => {
    // As a proxy does: the upgrade never opens. A WebSocket routed here is refused before it opens.
    await page.routeWebSocket(/\/api\/notificationhub/, (ws) => ws.close({ code: 1006, reason: 'blocked by proxy' }));
    if (blocked.block.includes('eventsource')) {
      // A proxy that buffers streamed answers until they end: an event stream never delivers.
      await page.route(/\/api\/notificationhub\?id=/, (route) =>
        route.request().headers()['accept']?.includes('text/event-stream') ? route.abort('blockedbyclient') : route.fallback(),
      );
    }
    const polls: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/notificationhub\?id=/.test(r.url()) && r.method() === 'GET') polls.push(r.headers()['accept'] ?? '');
    });
    await signInByToken(page, app.url, blocked.user, DEMO_PASSWORD);
    await page.goto(app.url + '/home');
    const bell = page.getByRole('button', { name: /Notifications \(\d+ unread\)/ });
    await expect(bell).toHaveAccessibleName('Notifications (0 unread)');
    // The connection runs on the fallback transport before anything is sent.
    const streamed = (accept: string) => accept.includes('text/event-stream');
    if (blocked.fallback === 'ServerSentEvents') await expect.poll(() => polls.filter(streamed).length, { timeout: 20_000 }).toBeGreaterThan(0);
    else await expect.poll(() => polls.filter((accept) => !streamed(accept)).length, { timeout: 20_000 }).toBeGreaterThan(0);

    // Something that notifies this user (each test has its own): they change their password.
    const next = `Fallback-${blocked.fallback}-1`;
    await page.goto(app.url + '/management/settings/security');
    await page.getByLabel('Old password').fill(DEMO_PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill(next);
    await page.getByLabel('Confirm new password').fill(next);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(bell).toHaveAccessibleName('Notifications (1 unread)', { timeout: 20_000 });
  });
}
