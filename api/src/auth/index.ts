// Accounts and authentication, for the features that build on them (users, hub, notifications).
export { EXPIRED_MESSAGE, FORBIDDEN_MESSAGE, registerAccessControl, tokenOf, UNAUTHENTICATED_MESSAGE } from './access';
export {
  findAccountByEmail,
  findAccountById,
  isPossibleId,
  MAX_ID,
  normalizeEmail,
  operatorsOf,
  projectNamesOf,
  userInfoOf,
  type AccountRow,
} from './accounts';
export { epochSeconds, isoTime, systemClock, type Clock } from './clock';
export { accountEvents, type AccountEventMap } from './events';
export { loadJwtSecret, signSessionToken, TOKEN_LIFETIME_SECONDS, verifySessionToken, type SessionClaims, type VerifiedClaims } from './jwt';
export { completeRegistrationLink, mailConfirmationLink, publicBaseUrl, recoveryLink } from './links';
export { findOneTimeToken, hashOneTimeToken, issueOneTimeToken, markOneTimeTokenUsed, ONE_TIME_TOKEN_LIFETIME_MS } from './one-time-tokens';
export { hashPassword, MIN_PASSWORD_LENGTH, PASSWORD_MESSAGES, passwordProblem, verifyPassword } from './passwords';
export { AuthRuntime, revokeSessions, type Session } from './runtime';
export { createCounterStore, Limiter, LIMITS, MemoryCounterStore, RedisCounterStore, type CounterStore } from './limits';
