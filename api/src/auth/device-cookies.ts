import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Device cookies (OWASP, "Slow brute-force attack protection: device cookies"): a browser that signed in
 * as an account keeps a signed cookie for that account, and a sign-in that presents it is judged by that
 * cookie's own failures only. Wrong passwords typed for the account from anywhere else (the account's
 * delay, the limits of other addresses) never slow or block it, so nobody can keep a colleague out by
 * typing their email; untrusted clients keep the per-account and per-address limits.
 *
 * The cookie's name is derived from the account (one per account, so several people sharing a browser
 * each keep theirs) and its value names no account: `<nonce>.<issued, epoch seconds>.<signature>`, the
 * signature binding nonce, time and account. Only the login call ever sees it (Path), no script reads it
 * (HttpOnly), and no other site's request carries it (SameSite=Strict).
 */
export const DEVICE_COOKIE = {
  /** Where the browser sends it: the login call alone (cookie paths match case-sensitively, as the login page calls it). */
  path: '/api/auth/login',
  namePrefix: 'cw_device_',
  /** A year: how long a browser stays trusted after its last successful sign-in (each one issues a fresh cookie). */
  maxAgeSeconds: 365 * 24 * 3600,
} as const;

const NONCE = /^[A-Za-z0-9_-]{22}$/;

export class DeviceCookies {
  private readonly key: Buffer;

  constructor(secret: string) {
    // Its own key, so a device cookie's signature can never stand for a session token's or the other way round.
    this.key = createHmac('sha256', secret).update('cellwise device cookie v1').digest();
  }

  private mac(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }

  /** The cookie name of an account's device cookie (emails are normalised by the caller). */
  nameFor(email: string): string {
    return `${DEVICE_COOKIE.namePrefix}${this.mac(`name|${email}`).slice(0, 16)}`;
  }

  /** A new cookie value for the account: a random nonce, the time, and their signature. */
  issue(email: string, nowMs: number): { name: string; value: string; nonce: string } {
    const nonce = randomBytes(16).toString('base64url');
    const issued = Math.floor(nowMs / 1000);
    return { name: this.nameFor(email), value: `${nonce}.${issued}.${this.mac(`device|${email}|${nonce}|${issued}`)}`, nonce };
  }

  /** The nonce of the account's device cookie among the request's cookies, or null when none is valid (unsigned, another account's, expired). */
  verify(email: string, cookieHeader: string | undefined, nowMs: number): string | null {
    const value = cookieValue(cookieHeader, this.nameFor(email));
    if (value === null) return null;
    const [nonce, issuedText, signature, extra] = value.split('.');
    if (extra !== undefined || !nonce || !NONCE.test(nonce) || !issuedText || !/^\d{1,12}$/.test(issuedText) || !signature) return null;
    const issued = Number(issuedText);
    const ageSeconds = nowMs / 1000 - issued;
    // A minute of clock skew between instances is tolerated; a cookie from the future beyond that is not one this server made.
    if (ageSeconds > DEVICE_COOKIE.maxAgeSeconds || ageSeconds < -60) return null;
    const expected = Buffer.from(this.mac(`device|${email}|${nonce}|${issued}`));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected) ? nonce : null;
  }
}

/** One cookie's value from a Cookie header (RFC 6265: `name=value` pairs separated by `;`), or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals < 0 || pair.slice(0, equals).trim() !== name) continue;
    const value = pair.slice(equals + 1).trim();
    return value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value;
  }
  return null;
}

/** The Set-Cookie header of a device cookie; Secure when the console is reached over https (directly, or behind TRUST_PROXY). */
export function deviceCookieHeader(cookie: { name: string; value: string }, secure: boolean): string {
  return [
    `${cookie.name}=${cookie.value}`,
    `Max-Age=${DEVICE_COOKIE.maxAgeSeconds}`,
    `Path=${DEVICE_COOKIE.path}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
