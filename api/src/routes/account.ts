import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { can } from 'shared-auth/policy';
import { findAccountByEmail, findAccountById, isPossibleId, normalizeEmail, operatorsOf, userInfoOf } from '../auth/accounts';
import { deviceCookieHeader } from '../auth/device-cookies';
import { accountEvents } from '../auth/events';
import { publicBaseUrl, recoveryLink } from '../auth/links';
import { findOneTimeToken, issueOneTimeToken, markOneTimeTokenUsed } from '../auth/one-time-tokens';
import { hashPassword, PASSWORD_MESSAGES, passwordProblem, verifyNothing, verifyPassword } from '../auth/passwords';
import { LIMITS, limitKeys } from '../auth/limits';
import {
  ChangePasswordRequest,
  ChangePasswordResponse,
  ConfirmationRequest,
  ErrorResponse,
  GetUserOperatorsQuery,
  LoginRequest,
  MessageResponse,
  RecoverRequest,
  TokenResponse,
  UpdateSettingsRequest,
  UserInfo,
  UserOperators,
} from 'contracts';
import type { OneTimeTokenPurpose } from '../db/schema';
import { tooMany } from '../http/too-many';
import { recoveryMail } from '../mail';
import { fail, sessionOf } from './support';

export const MESSAGES = {
  invalidLogin: 'Invalid email or password.',
  unconfirmed: 'Please confirm your email address first: follow the link in the confirmation email.',
  deactivated: 'This account has been deactivated. Contact your administrator.',
  recoverAnswer: 'If the address belongs to an account, a recovery email is on its way.',
  passwordsDiffer: 'Passwords do not match.',
  badLink: 'This link is invalid or has expired. Ask for a new one.',
  wrongOldPassword: 'The old password is not correct.',
  passwordChanged: 'Password changed!',
  emailFixed: 'The email address cannot be changed.',
  forbidden: 'You are not allowed to do this.',
  noSuchOperator: 'This operator does not exist.',
  noSuchUser: 'User not found.',
} as const;

/** Names and the like are stored; control characters there are never meant (and PostgreSQL refuses NUL). */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** The user id from a mailed link: a number, or its digits as text (the page reads it from the query string). */
function linkUserId(user: number | string): number | null {
  const id = typeof user === 'number' ? user : /^\d{1,10}$/.test(user.trim()) ? Number(user.trim()) : NaN;
  return isPossibleId(id) ? id : null;
}

function tellPasswordChanged(request: FastifyRequest, userId: number): void {
  try {
    accountEvents.emit('passwordChanged', userId);
  } catch (error) {
    // A listener's fault must not turn a password that was changed into an error answer.
    request.log.error({ err: error }, 'passwordChanged listener failed');
  }
}

const tags = ['account'];

/** Specification §7 "Account and authentication". Errors are `{ message }`; paths match case-insensitively. */
export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const { auth } = app;

  app.post(
    '/auth/login',
    {
      schema: {
        summary: 'Sign in: answers a session token',
        tags,
        body: LoginRequest,
        response: { 200: TokenResponse, 400: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse },
      },
      config: { access: 'public' },
    },
    async (request, reply) => {
      const email = normalizeEmail(request.body.email);
      const now = auth.clock();
      const { limits } = auth;
      const accountKey = limitKeys.loginAccount(email);
      const pairKey = limitKeys.loginAccountAddress(email, request.ip);
      const addressKey = limitKeys.loginAddress(request.ip);
      // A browser that signed in as this account before is judged by its own failures only: what others
      // typed for the account, from wherever, never slows or blocks it (OWASP device cookies).
      const device = auth.devices.verify(email, request.headers.cookie, now);
      const deviceKey = device === null ? null : limitKeys.loginDevice(device);
      const wait = await limits.retryAfter(deviceKey ? [deviceKey] : [addressKey, pairKey, accountKey], now);
      if (wait !== null) return tooMany(reply, wait);

      const account = await findAccountByEmail(db, email);
      const passwordOk = account?.passwordHash ? await verifyPassword(account.passwordHash, request.body.password) : await verifyNothing(request.body.password);
      if (!account || !passwordOk) {
        if (deviceKey) {
          await limits.count(deviceKey, LIMITS.loginFailuresPerDevice, now);
        } else {
          // Counted whether or not the email has an account, so the limits reveal nothing either.
          await limits.count(addressKey, LIMITS.loginFailuresPerAddress, now);
          await limits.count(pairKey, LIMITS.loginFailuresPerAccountAndAddress, now);
          await limits.countAccountFailure(email, now);
        }
        return fail(reply, 400, MESSAGES.invalidLogin);
      }
      // Told only to whoever knows the password, so these answers reveal nothing to a guesser.
      if (account.deactivated) return fail(reply, 403, MESSAGES.deactivated);
      if (!account.emailConfirmed) return fail(reply, 403, MESSAGES.unconfirmed);

      // A trusted browser's success leaves the account's delay to run: it was earned by someone else.
      await limits.store.reset(...(deviceKey ? [deviceKey, pairKey] : [pairKey, accountKey]));
      const token = await auth.issueToken(account.id);
      if (!token) return fail(reply, 400, MESSAGES.invalidLogin);
      // Every success hands the browser a fresh device cookie (a new nonce, a new year).
      reply.header('Set-Cookie', deviceCookieHeader(auth.devices.issue(email, now), request.protocol === 'https'));
      return { token };
    },
  );

  app.post(
    '/account/GetUserInfo',
    {
      schema: { summary: 'The session user', tags, security: [{ bearer: [] }], response: { 200: UserInfo, 401: ErrorResponse } },
      config: { access: 'authenticated' },
    },
    async (request, reply) => {
      const info = await userInfoOf(db, sessionOf(request).userId);
      if (!info) return fail(reply, 401, 'Please sign in to continue.');
      return info;
    },
  );

  app.post(
    '/auth/recover',
    {
      schema: {
        summary: 'Mails a password recovery link (same answer whether the address has an account or not)',
        tags,
        body: RecoverRequest,
        response: { 200: MessageResponse, 400: ErrorResponse, 429: ErrorResponse },
      },
      config: { access: 'public' },
    },
    async (request, reply) => {
      const email = normalizeEmail(request.body.email);
      const now = auth.clock();
      const { limits } = auth;
      const keys = [limitKeys.recoverAddress(request.ip), limitKeys.recoverAccount(email)];
      const wait = await limits.retryAfter(keys, now);
      if (wait !== null) return tooMany(reply, wait);
      await limits.count(keys[0]!, LIMITS.recoverPerAddress, now);
      await limits.count(keys[1]!, LIMITS.recoverPerAccount, now);
      // The answer leaves before the address is even looked up, so its timing cannot tell whether the
      // email has an account; the link is made and mailed after it.
      app.mailer.sendLater(
        () => recoveryMailFor(email, now),
        (error) => request.log.error({ err: error }, 'recovery mail could not be sent'),
      );
      return { message: MESSAGES.recoverAnswer };
    },
  );

  async function recoveryMailFor(email: string, now: number) {
    const account = await findAccountByEmail(db, email);
    if (!account || !account.emailConfirmed || account.deactivated) return null;
    const token = await issueOneTimeToken(db, account.id, 'recover', now);
    return recoveryMail(account, recoveryLink(publicBaseUrl(app), token, account.id));
  }

  /** Both mailed links end the same way: choose a password, and the answer signs the user in. */
  async function passwordFromLink(purpose: OneTimeTokenPurpose, body: ConfirmationRequest, request: FastifyRequest, reply: FastifyReply) {
    const { password, rpassword, token, user } = body;
    const now = auth.clock();
    const { limits } = auth;
    const addressKey = limitKeys.linkAddress(request.ip);
    const userId = linkUserId(user);
    const accountKey = userId === null ? null : limitKeys.linkAccount(userId);
    const wait = await limits.retryAfter(accountKey ? [addressKey, accountKey] : [addressKey], now);
    if (wait !== null) return tooMany(reply, wait);
    // Every try counts against the address: each one costs a token lookup, and a guesser needs many.
    await limits.count(addressKey, LIMITS.linkPerAddress, now);

    if (password !== rpassword) return fail(reply, 400, MESSAGES.passwordsDiffer);
    if (userId === null || accountKey === null) return fail(reply, 400, MESSAGES.badLink);
    const tokenId = await findOneTimeToken(db, userId, purpose, token, now);
    const account = tokenId === null ? null : await findAccountById(db, userId);
    if (tokenId === null || !account || account.deactivated) {
      await limits.count(accountKey, LIMITS.linkFailuresPerAccount, now);
      return fail(reply, 400, MESSAGES.badLink);
    }
    const problem = passwordProblem(password, account.email);
    if (problem) return fail(reply, 400, problem);
    // A recovery that sets the password it replaces changes nothing an attacker who knew it would mind.
    if (account.passwordHash && (await verifyPassword(account.passwordHash, password))) return fail(reply, 400, PASSWORD_MESSAGES.reused);

    const passwordHash = await hashPassword(password);
    const done = await db.transaction().execute(async (trx) => {
      if (!(await markOneTimeTokenUsed(trx, tokenId, now))) return false;
      await trx
        .updateTable('users')
        .set({
          password_hash: passwordHash,
          // Whoever follows either link has shown they read this mailbox.
          email_confirmed: 1,
          ...(purpose === 'recover' ? { tokens_valid_after: auth.revocationPoint() } : {}),
        })
        .where('id', '=', userId)
        .execute();
      return true;
    });
    if (!done) return fail(reply, 400, MESSAGES.badLink);
    // A new password ends any delay that wrong guesses put on signing in.
    await limits.store.reset(accountKey, limitKeys.loginAccount(account.email));
    if (purpose === 'recover') tellPasswordChanged(request, userId);
    const sessionToken = await auth.issueToken(userId);
    if (!sessionToken) return fail(reply, 400, MESSAGES.badLink);
    return reply.send({ token: sessionToken });
  }

  const linkSchema = (summary: string) => ({
    summary,
    tags,
    body: ConfirmationRequest,
    response: { 200: TokenResponse, 400: ErrorResponse, 429: ErrorResponse },
  });

  app.post(
    '/auth/completeRegistration',
    { schema: linkSchema('Chooses the first password from the confirmation link; answers a session token'), config: { access: 'public' } },
    async (request, reply) => passwordFromLink('confirm', request.body, request, reply),
  );

  app.post(
    '/auth/recoverconfirmation',
    { schema: linkSchema('Chooses a new password from the recovery link; answers a session token'), config: { access: 'public' } },
    async (request, reply) => passwordFromLink('recover', request.body, request, reply),
  );

  app.post(
    '/Account/ChangePassword',
    {
      schema: {
        summary: 'Changes the password; every older token stops working, the answer carries a new one',
        tags,
        security: [{ bearer: [] }],
        body: ChangePasswordRequest,
        response: { 200: ChangePasswordResponse, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse },
      },
      config: { access: 'authenticated' },
    },
    async (request, reply) => {
      const { oldpassword, newpassword, confirmnewpassword } = request.body;
      if (newpassword !== confirmnewpassword) return fail(reply, 400, MESSAGES.passwordsDiffer);
      const account = await findAccountById(db, sessionOf(request).userId);
      if (!account) return fail(reply, 401, 'Please sign in to continue.');

      // A stolen session must not become a way to guess the password; this counts only against the
      // session's own user, never against signing in.
      const now = auth.clock();
      const { limits } = auth;
      const key = limitKeys.changePassword(account.id);
      const wait = await limits.retryAfter([key], now);
      if (wait !== null) return tooMany(reply, wait);
      if (!account.passwordHash || !(await verifyPassword(account.passwordHash, oldpassword))) {
        await limits.count(key, LIMITS.changePasswordFailuresPerUser, now);
        return fail(reply, 400, MESSAGES.wrongOldPassword);
      }
      // The old password was just verified, so this compares with the current one.
      if (newpassword === oldpassword) return fail(reply, 400, PASSWORD_MESSAGES.reused);
      const problem = passwordProblem(newpassword, account.email);
      if (problem) return fail(reply, 400, problem);

      const passwordHash = await hashPassword(newpassword);
      await db.updateTable('users').set({ password_hash: passwordHash, tokens_valid_after: auth.revocationPoint() }).where('id', '=', account.id).execute();
      await limits.store.reset(key, limitKeys.loginAccount(account.email));
      const token = await auth.issueToken(account.id);
      if (!token) return fail(reply, 401, 'Please sign in to continue.');
      // Told once the answer (with this session's new token) is on its way: the console fetches its
      // notifications when one arrives, and did so with the old, now refused token (a 401, issue 47).
      reply.raw.once('finish', () => tellPasswordChanged(request, account.id));
      return { message: MESSAGES.passwordChanged, token };
    },
  );

  app.post(
    '/Account/UpdateSettings',
    {
      schema: {
        summary: 'Updates the profile (names and current operator); the email cannot change',
        tags,
        security: [{ bearer: [] }],
        body: UpdateSettingsRequest,
        response: { 200: UserInfo, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
      config: { access: 'authenticated' },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const account = await findAccountById(db, session.userId);
      if (!account) return fail(reply, 401, 'Please sign in to continue.');
      const { email, operatorId } = request.body;
      if (email !== undefined && email.trim() !== '' && normalizeEmail(email) !== account.email) return fail(reply, 400, MESSAGES.emailFixed);
      const firstname = request.body.firstname.trim();
      const lastname = request.body.lastname.trim();
      for (const [field, value] of [
        ['firstname', firstname],
        ['lastname', lastname],
      ] as const) {
        if (value === '') return fail(reply, 400, `${field} is required`);
        if (hasControlCharacter(value)) return fail(reply, 400, `${field}: must not contain control characters`);
      }

      if (operatorId !== account.operatorId) {
        if (!can(session.principal, 'canChooseOperator')) return fail(reply, 403, MESSAGES.forbidden);
        const operator = isPossibleId(operatorId) ? await db.selectFrom('operators').select('id').where('id', '=', operatorId).executeTakeFirst() : undefined;
        // An Administrator may pick any operator; everyone else only one they belong to.
        if (!can(session.principal, 'canAdminister')) {
          const member = operator
            ? await db
                .selectFrom('user_operators')
                .select('operator_id')
                .where('user_id', '=', account.id)
                .where('operator_id', '=', operatorId)
                .executeTakeFirst()
            : undefined;
          if (!member) return fail(reply, 403, MESSAGES.forbidden);
        } else if (!operator) {
          return fail(reply, 400, MESSAGES.noSuchOperator);
        }
      }

      await db.updateTable('users').set({ firstname, lastname, operator_id: operatorId }).where('id', '=', account.id).execute();
      const info = await userInfoOf(db, account.id);
      if (!info) return fail(reply, 401, 'Please sign in to continue.');
      return info;
    },
  );

  app.get(
    '/Account/GetUserOperators',
    {
      schema: {
        summary: "A user's operators, sorted by name (oneself; Administrators and Managers for others)",
        tags,
        security: [{ bearer: [] }],
        querystring: GetUserOperatorsQuery,
        response: { 200: UserOperators, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
      config: { access: 'authenticated' },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const { userId } = request.query;
      if (userId !== session.userId) {
        if (!can(session.principal, 'canManage')) return fail(reply, 403, MESSAGES.forbidden);
        const exists = isPossibleId(userId) ? await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst() : undefined;
        if (!exists) return fail(reply, 404, MESSAGES.noSuchUser);
        // docs/architecture.md#accounts-sessions-and-abuse-limits: a Manager sees only users of their own operators.
        if (!can(session.principal, 'canAdminister')) {
          const shared = await db
            .selectFrom('user_operators as mine')
            .innerJoin('user_operators as theirs', 'theirs.operator_id', 'mine.operator_id')
            .select('mine.operator_id')
            .where('mine.user_id', '=', session.userId)
            .where('theirs.user_id', '=', userId)
            .executeTakeFirst();
          if (!shared) return fail(reply, 403, MESSAGES.forbidden);
        }
      }
      return operatorsOf(db, userId);
    },
  );
};
