import { eventOf, LongPollingTransport, type PollAnswer } from '../src/hub/transports';

const RS = '\x1e';

describe('Server-Sent Events framing', () => {
  test('one event per send; each line of the text a data line, so the client joins them back with \\n', () => {
    expect(eventOf(`{"type":6}${RS}`)).toBe(`data: {"type":6}${RS}\n\n`);
    expect(eventOf(`a\nb\r\nc\rd`)).toBe('data: a\ndata: b\ndata: c\ndata: d\n\n');
    expect(eventOf('')).toBe('data: \n\n');
  });
});

describe('long-polling transport', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const POLL_MS = 30_000;
  const LINGER_MS = 5000;
  function transport() {
    const t = new LongPollingTransport(POLL_MS, LINGER_MS);
    const closed = jest.fn();
    t.onClosed = closed;
    return { t, closed };
  }
  /** The poll's answer if it has one by now, else 'waiting'. */
  async function stateOf(answer: Promise<PollAnswer>): Promise<PollAnswer | 'waiting'> {
    return Promise.race([answer, Promise.resolve().then(() => 'waiting' as const)]);
  }

  test('a poll takes everything queued at once; one with nothing waits for the next send', async () => {
    const { t } = transport();
    t.send('a');
    t.send('b');
    expect(t.bufferedBytes).toBe(2);
    expect(await t.poll().answer).toEqual({ status: 200, body: 'ab' });
    expect(t.bufferedBytes).toBe(0);
    const waiting = t.poll().answer;
    expect(t.holdsPoll).toBe(true);
    expect(await stateOf(waiting)).toBe('waiting');
    t.send('c');
    expect(await waiting).toEqual({ status: 200, body: 'c' });
    expect(t.holdsPoll).toBe(false);
  });

  test('a poll with nothing to take is answered empty after the poll timeout, not later', async () => {
    const { t } = transport();
    const waiting = t.poll().answer;
    jest.advanceTimersByTime(POLL_MS - 1);
    expect(await stateOf(waiting)).toBe('waiting');
    jest.advanceTimersByTime(1);
    expect(await waiting).toEqual({ status: 200, body: '' });
  });

  test('a newer poll answers the one still held with 204 and carries on', async () => {
    const { t, closed } = transport();
    const older = t.poll().answer;
    const newer = t.poll().answer;
    expect(await older).toEqual({ status: 204 });
    t.send('x');
    expect(await newer).toEqual({ status: 200, body: 'x' });
    expect(closed).not.toHaveBeenCalled();
  });

  test('an abandoned poll is settled and forgotten: the next message waits for the next poll', async () => {
    const { t } = transport();
    const { answer, abandon } = t.poll();
    abandon();
    expect(await answer).toEqual({ status: 204 });
    expect(t.holdsPoll).toBe(false);
    t.send('kept');
    expect(await t.poll().answer).toEqual({ status: 200, body: 'kept' });
  });

  test('ending with a poll held: it takes what is left, then the transport is closed', async () => {
    const { t, closed } = transport();
    const waiting = t.poll().answer;
    t.end();
    expect(await waiting).toEqual({ status: 204 });
    expect(closed).toHaveBeenCalledTimes(1);
    expect(await t.poll().answer).toEqual({ status: 204 });
    t.send('ignored');
    expect(t.bufferedBytes).toBe(0);
  });

  test('ending with messages queued and no poll: they wait for the next poll, for the linger time at most', async () => {
    const taken = transport();
    taken.t.send('bye');
    taken.t.end();
    expect(taken.closed).not.toHaveBeenCalled();
    expect(await taken.t.poll().answer).toEqual({ status: 200, body: 'bye' });
    expect(taken.closed).toHaveBeenCalledTimes(1);

    const lost = transport();
    lost.t.send('bye');
    lost.t.end();
    jest.advanceTimersByTime(LINGER_MS - 1);
    expect(lost.closed).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(lost.closed).toHaveBeenCalledTimes(1);
    expect(await lost.t.poll().answer).toEqual({ status: 204 });
  });

  test('terminate answers a held poll 204 and closes once; nothing sent after it is kept', async () => {
    const { t, closed } = transport();
    const waiting = t.poll().answer;
    t.terminate();
    expect(await waiting).toEqual({ status: 204 });
    t.send('late');
    expect(t.bufferedBytes).toBe(0);
    t.terminate();
    t.end();
    expect(closed).toHaveBeenCalledTimes(1);
  });

  test('terminate with messages queued and no poll drops them at once, with no linger', () => {
    const { t, closed } = transport();
    t.send('x'.repeat(100));
    t.terminate();
    expect(t.bufferedBytes).toBe(0);
    expect(closed).toHaveBeenCalledTimes(1);
  });
});
