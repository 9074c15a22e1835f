import { connectNotificationHub } from './hub';
import { startHubClient, type HubClientOptions } from './hubClient';
import { JOB_PROGRESS_EVENT, onJobProgress, publishJobProgress, type JobProgressEvent } from './jobProgress';
import { clearSession, setToken } from './session';

jest.mock('./hubClient', () => ({ startHubClient: jest.fn(() => Promise.resolve({ stop: jest.fn() })) }));
const started = startHubClient as jest.MockedFunction<typeof startHubClient>;
const handlersOfLastStart = () => (started.mock.calls.at(-1)![0] as HubClientOptions).handlers;

const reading: JobProgressEvent = { id: 'job-1', kind: 'tracking.import', state: 'running', progress: 40, text: 'Reading rows 40,000 / 100,000' };

function jwt(payload: object): string {
  return `h.${btoa(JSON.stringify(payload))}.s`;
}

describe('job progress', () => {
  test('every subscriber gets each event; a kind filter and unsubscribing are honoured', () => {
    const all = jest.fn();
    const imports = jest.fn();
    const stopAll = onJobProgress(all);
    const stopImports = onJobProgress(imports, 'tracking.import');
    publishJobProgress(reading);
    publishJobProgress({ ...reading, id: 'job-2', kind: 'tracking.export', progress: 5, text: 'Writing Tracker' });
    expect(all).toHaveBeenCalledTimes(2);
    expect(imports.mock.calls).toEqual([[reading]]);
    stopAll();
    stopImports();
    publishJobProgress(reading);
    expect(all).toHaveBeenCalledTimes(2);
    expect(imports).toHaveBeenCalledTimes(1);
  });

  test('a malformed payload is dropped and a failing listener does not stop the others', () => {
    const failing = jest.fn(() => {
      throw new Error('listener fault');
    });
    const listener = jest.fn();
    const stops = [onJobProgress(failing), onJobProgress(listener)];
    publishJobProgress(null);
    publishJobProgress({ id: 1, kind: 'tracking.import' });
    expect(listener).not.toHaveBeenCalled();
    publishJobProgress({ id: 'job-3', kind: 'tracking.sync', state: 'running', progress: 140 });
    expect(listener).toHaveBeenCalledWith({ id: 'job-3', kind: 'tracking.sync', state: 'running', progress: 100, text: null });
    stops.forEach((stop) => stop());
  });

  test('signed out, no connection is built (nor its client library loaded)', async () => {
    clearSession();
    const hub = connectNotificationHub({ onNotification: jest.fn(), onConnected: jest.fn() });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).not.toHaveBeenCalled();
    await hub.stop();
  });

  test("the hub's JobProgress event reaches subscribers through the handler the shell passes", async () => {
    setToken(jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }));
    const connected = jest.fn();
    const hub = connectNotificationHub({ onNotification: jest.fn(), onConnected: connected, onJobProgress: publishJobProgress });
    // The client is imported with the first connection, so the connection starts a few ticks later.
    for (let tick = 0; tick < 20 && !connected.mock.calls.length; tick += 1) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toHaveBeenCalled();
    expect(connected).toHaveBeenCalled();
    const listener = jest.fn();
    const stop = onJobProgress(listener, 'tracking.import');
    handlersOfLastStart()[JOB_PROGRESS_EVENT]!(reading);
    expect(listener).toHaveBeenCalledWith(reading);
    stop();
    await hub.stop();
    clearSession();
  });
});
