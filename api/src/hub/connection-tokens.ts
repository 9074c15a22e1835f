import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Remembers which connection tokens were used. Across instances (Redis) when scaled out, so a token
 * negotiated on one instance is accepted once on whichever instance the load balancer picks.
 */
export interface UsedTokenRegistry {
  /** True the first time `connectionId` is claimed within `ttlMs`, false afterwards. */
  claim(connectionId: string, ttlMs: number): Promise<boolean>;
}

/** One process: a map whose entries outlive the tokens they guard, then are swept. */
export class LocalUsedTokenRegistry implements UsedTokenRegistry {
  private readonly used = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  claim(connectionId: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    if (this.used.size > 1000) for (const [id, until] of this.used) if (until <= now) this.used.delete(id);
    const until = this.used.get(connectionId);
    if (until !== undefined && until > now) return Promise.resolve(false);
    this.used.set(connectionId, now + ttlMs);
    return Promise.resolve(true);
  }
}

export interface NegotiatedConnection {
  connectionId: string;
  connectionToken: string;
}

export interface RedeemedConnection {
  connectionId: string;
  userId: number;
}

interface TokenPayload {
  /** Connection id, public (the client logs it). */
  c: string;
  /** User the token was negotiated for. */
  u: number;
  /** Expiry, epoch milliseconds. */
  e: number;
}

function isTokenPayload(value: unknown): value is TokenPayload {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Record<string, unknown>;
  return typeof p.c === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(p.c) && Number.isSafeInteger(p.u) && Number.isSafeInteger(p.e);
}

/**
 * Connection tokens are signed rather than stored, so negotiate and the WebSocket request may land on
 * different instances without sticky sessions; the registry makes each usable once.
 */
export class ConnectionTokens {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly registry: UsedTokenRegistry,
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    // A key of its own, so a connection token can never pass for a session token or the reverse.
    this.key = createHmac('sha256', secret).update('cellwise/hub/connection-token/v1').digest();
  }

  private sign(body: string): Buffer {
    return createHmac('sha256', this.key).update(body).digest();
  }

  issue(userId: number): NegotiatedConnection {
    const connectionId = randomBytes(16).toString('base64url');
    const payload: TokenPayload = { c: connectionId, u: userId, e: this.now() + this.ttlMs };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return { connectionId, connectionToken: `${body}.${this.sign(body).toString('base64url')}` };
  }

  /**
   * The connection a genuine token names, used or not and however old: how the requests after the
   * first (POSTs and polls of the HTTP transports) find the connection the first one opened.
   */
  identify(token: string): RedeemedConnection | null {
    const payload = this.payloadOf(token);
    return payload ? { connectionId: payload.c, userId: payload.u } : null;
  }

  /** The connection a token stands for, or null when it is forged, expired or already used. */
  async redeem(token: string): Promise<RedeemedConnection | null> {
    const payload = this.payloadOf(token);
    if (!payload) return null;
    const left = payload.e - this.now();
    if (left <= 0) return null;
    // Remembered a little longer than the token lives, so clock skew between instances cannot reopen it.
    if (!(await this.registry.claim(payload.c, left + 60_000))) return null;
    return { connectionId: payload.c, userId: payload.u };
  }

  private payloadOf(token: string): TokenPayload | null {
    if (token.length > 512) return null;
    const [body, sig, extra] = token.split('.');
    if (!body || !sig || extra !== undefined || !/^[A-Za-z0-9_-]+$/.test(body) || !/^[A-Za-z0-9_-]+$/.test(sig)) return null;
    const given = Buffer.from(sig, 'base64url');
    const expected = this.sign(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    return isTokenPayload(payload) ? payload : null;
  }
}
