import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isRole, type Role } from 'shared-auth/policy';

/** docs/architecture.md#accounts-sessions-and-abuse-limits: a session lasts one working day. */
export const TOKEN_LIFETIME_SECONDS = 8 * 60 * 60;

/** What a session token says about its user when it is issued (the access hook re-reads the user anyway). */
export interface SessionClaims {
  userId: number;
  role: Role;
  operatorId: number | null;
  /** Project names. */
  projects: string[];
}

export interface VerifiedClaims extends SessionClaims {
  /** Issued at, epoch seconds. */
  iat: number;
  /** Expires at, epoch seconds. */
  exp: number;
}

/** The payload as it travels; `sub` is the user id as text (RFC 7519 §4.1.2). */
interface Payload {
  sub: string;
  role: Role;
  operatorId: number | null;
  projects: string[];
  iat: number;
  exp: number;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function signature(input: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(input).digest();
}

/** Signs an HS256 token issued at `iatSeconds` that expires TOKEN_LIFETIME_SECONDS later. */
export function signSessionToken(claims: SessionClaims, secret: string, iatSeconds: number): string {
  const payload: Payload = {
    sub: String(claims.userId),
    role: claims.role,
    operatorId: claims.operatorId,
    projects: claims.projects,
    iat: iatSeconds,
    exp: iatSeconds + TOKEN_LIFETIME_SECONDS,
  };
  const body = `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${body}.${signature(body, secret).toString('base64url')}`;
}

function isPayload(value: unknown): value is Payload {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Record<string, unknown>;
  return (
    typeof p.sub === 'string' &&
    /^[1-9]\d{0,14}$/.test(p.sub) &&
    isRole(p.role) &&
    (p.operatorId === null || Number.isInteger(p.operatorId)) &&
    Array.isArray(p.projects) &&
    p.projects.every((x) => typeof x === 'string') &&
    Number.isInteger(p.iat) &&
    Number.isInteger(p.exp)
  );
}

function parseJson(segment: string): unknown {
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The claims of a token whose signature is ours and which has not expired at `nowSeconds`; null for
 * anything else. Only HS256 is accepted, whatever the header asks for (no `alg: none`, no key confusion).
 */
export function verifySessionToken(token: string, secret: string, nowSeconds: number): VerifiedClaims | null {
  if (token.length > 8192) return null;
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => BASE64URL.test(p))) return null;
  const [header, body, sig] = parts as [string, string, string];
  const expected = signature(`${header}.${body}`, secret);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const head = parseJson(header) as { alg?: unknown } | undefined;
  if (head?.alg !== 'HS256') return null;
  const payload = parseJson(body);
  if (!isPayload(payload) || payload.exp <= nowSeconds) return null;
  return {
    userId: Number(payload.sub),
    role: payload.role,
    operatorId: payload.operatorId,
    projects: payload.projects,
    iat: payload.iat,
    exp: payload.exp,
  };
}

/**
 * JWT_SECRET when set; otherwise a secret generated on first start into DATA_DIR/jwt-secret (0600) and
 * reused, so sessions survive restarts. Instances that share no DATA_DIR must share JWT_SECRET.
 */
export function loadJwtSecret(config: { jwtSecret: string | null; dataDir: string }): string {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.join(config.dataDir, 'jwt-secret');
  const read = () => fs.readFileSync(file, 'utf8').trim();
  if (fs.existsSync(file)) {
    const existing = read();
    if (existing.length >= 32) return existing;
    throw new Error(`${file} holds no usable secret (fewer than 32 characters): delete it to have a new one generated`);
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  // Written whole under a private name, then linked into place: link() fails if the file exists, so two
  // processes starting together agree on one secret and neither ever reads a half-written file.
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(temporary, `${secret}\n`, { mode: 0o600 });
  try {
    fs.linkSync(temporary, file);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return read();
    throw error;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}
