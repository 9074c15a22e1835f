import { ConnectionTokens, LocalUsedTokenRegistry } from '../src/hub/connection-tokens';
import { closeFrame, handshakeAnswer, invocationFrame, parseMessage, ProtocolError, RecordReader } from '../src/hub/protocol';
import { ACTIVITY_WINDOW_MS, LocalPresence } from '../src/notifications/presence';

const RS = '\x1e';
const SECRET = 'unit-test-secret-0123456789-0123456789-abcdef';

describe('JSON hub protocol framing', () => {
  test('records end with 0x1E; several per chunk, and one may span chunks', () => {
    const reader = new RecordReader();
    expect(reader.push(`{"type":6}${RS}{"type":1,"target":"A"}${RS}{"type":`)).toEqual(['{"type":6}', '{"type":1,"target":"A"}']);
    expect(reader.push('6}')).toEqual([]);
    expect(reader.push(`${RS}`)).toEqual(['{"type":6}']);
  });

  test('an unfinished record beyond the bound is refused rather than buffered', () => {
    const reader = new RecordReader(16);
    expect(() => reader.push('x'.repeat(17))).toThrow(ProtocolError);
  });

  test('the handshake accepts json version 1 only', () => {
    expect(handshakeAnswer('{"protocol":"json","version":1}')).toEqual({ ok: true });
    for (const request of ['{"protocol":"json","version":2}', '{"protocol":"messagepack","version":1}', 'not json', '42', '{}']) {
      expect([request, handshakeAnswer(request).ok]).toEqual([request, false]);
    }
  });

  test('messages must be objects with an integer type', () => {
    expect(parseMessage('{"type":1,"target":"X","arguments":[]}')).toEqual({ type: 1, target: 'X', arguments: [] });
    for (const bad of ['[]', '"x"', '{"type":"1"}', '{"type":1.5}', '{']) expect(() => parseMessage(bad)).toThrow(ProtocolError);
  });

  test('frames as the official client reads them', () => {
    expect(invocationFrame('NewNotification', [{ id: 1 }])).toBe(`{"type":1,"target":"NewNotification","arguments":[{"id":1}]}${RS}`);
    expect(closeFrame('bye', false)).toBe(`{"type":7,"error":"bye","allowReconnect":false}${RS}`);
    expect(closeFrame(undefined, true)).toBe(`{"type":7,"allowReconnect":true}${RS}`);
  });
});

describe('connection tokens', () => {
  let now = 1_000_000;
  const clock = () => now;
  const tokens = () => new ConnectionTokens(SECRET, new LocalUsedTokenRegistry(clock), 30_000, clock);

  test('redeemed once, for the user it was issued to', async () => {
    const issuer = tokens();
    const { connectionId, connectionToken } = issuer.issue(42);
    expect(connectionToken).not.toContain(connectionId);
    expect(await issuer.redeem(connectionToken)).toEqual({ connectionId, userId: 42 });
    expect(await issuer.redeem(connectionToken)).toBeNull();
  });

  test('another instance with the same secret accepts it (no sticky sessions)', async () => {
    const { connectionToken } = tokens().issue(7);
    expect(await tokens().redeem(connectionToken)).toEqual({ connectionId: expect.any(String), userId: 7 });
  });

  test('expired, tampered or foreign tokens are refused', async () => {
    const issuer = tokens();
    const stale = issuer.issue(1).connectionToken;
    now += 30_001;
    expect(await issuer.redeem(stale)).toBeNull();

    const { connectionToken } = issuer.issue(1);
    const [body, sig] = connectionToken.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const otherUser = Buffer.from(JSON.stringify({ ...payload, u: 2 })).toString('base64url');
    expect(await issuer.redeem(`${otherUser}.${sig}`)).toBeNull();
    const foreign = new ConnectionTokens('another-secret-0123456789-0123456789-abcdef', new LocalUsedTokenRegistry(clock), 30_000, clock).issue(
      1,
    ).connectionToken;
    expect(await issuer.redeem(foreign)).toBeNull();
    for (const junk of ['', 'a.b.c', 'no-dot', `${body}.`, 'x'.repeat(600)]) expect(await issuer.redeem(junk)).toBeNull();
    // The genuine one still works: the refusals above were about the tampering.
    expect(await issuer.redeem(connectionToken)).toEqual({ connectionId: expect.any(String), userId: 1 });
  });
});

describe('connection tokens, identified', () => {
  const clock = () => 1_000_000;
  const tokens = (secret = SECRET) => new ConnectionTokens(secret, new LocalUsedTokenRegistry(clock), 30_000, clock);

  test('a genuine token names its connection and user, used or not, expired or not: how later requests find their connection', async () => {
    let now = 1_000_000;
    const issuer = new ConnectionTokens(SECRET, new LocalUsedTokenRegistry(() => now), 30_000, () => now);
    const { connectionId, connectionToken } = issuer.issue(42);
    expect(issuer.identify(connectionToken)).toEqual({ connectionId, userId: 42 });
    expect(await issuer.redeem(connectionToken)).toEqual({ connectionId, userId: 42 });
    now += 10 * 60_000;
    expect(issuer.identify(connectionToken)).toEqual({ connectionId, userId: 42 });
    expect(await issuer.redeem(connectionToken)).toBeNull();
  });

  test('tampered, foreign or junk tokens name nothing', () => {
    const issuer = tokens();
    const { connectionToken } = issuer.issue(1);
    const [body, sig] = connectionToken.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    expect(issuer.identify(`${Buffer.from(JSON.stringify({ ...payload, u: 2 })).toString('base64url')}.${sig}`)).toBeNull();
    expect(issuer.identify(tokens('another-secret-0123456789-0123456789-abcdef').issue(1).connectionToken)).toBeNull();
    for (const junk of ['', 'a.b.c', 'no-dot', `${body}.`, 'x'.repeat(600)]) expect(issuer.identify(junk)).toBeNull();
  });
});

describe('presence on one instance', () => {
  test('connections are counted per user; activity counts within the window', async () => {
    let now = 0;
    const presence = new LocalPresence(() => now);
    presence.connected(1);
    presence.connected(1);
    presence.disconnected(1);
    expect(await presence.isOnline(1)).toBe(true);
    presence.disconnected(1);
    expect(await presence.isOnline(1)).toBe(false);

    presence.touch(2);
    presence.connected(3);
    expect(await presence.onlineUserIds()).toEqual([2, 3]);
    now = ACTIVITY_WINDOW_MS - 1;
    expect(await presence.isOnline(2)).toBe(true);
    now = ACTIVITY_WINDOW_MS;
    expect(await presence.isOnline(2)).toBe(false);
    expect(await presence.onlineUserIds()).toEqual([3]);
  });
});
