import { argon2id, hash, verify } from 'argon2';

export { MIN_PASSWORD_LENGTH, PASSWORD_MESSAGES, passwordProblem } from './password-rules';

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
const ARGON2_OPTIONS = { type: argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    // A malformed stored hash is a wrong password, not a server fault the caller could probe for.
    return false;
  }
}

let decoyHash: Promise<string> | null = null;

/**
 * Spends the time of one verification when there is no user (or no password) to check, so the answer
 * time does not tell whether an e-mail address has an account.
 */
export async function verifyNothing(password: string): Promise<false> {
  decoyHash ??= hashPassword('decoy password that matches no one');
  await verifyPassword(await decoyHash, password);
  return false;
}
