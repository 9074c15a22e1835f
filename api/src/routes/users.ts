import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assignableRoles, isRole } from 'shared-auth/policy';
import { normalizeEmail } from '../auth/accounts';
import { mailConfirmationLink } from '../auth/links';
import {
  AuditTrail,
  AuditTrailQuery,
  CreatedResponse,
  EditUserRequest,
  ErrorResponse,
  MessageResponse,
  OperatorOptions,
  OperatorProjectsQuery,
  ProjectOptions,
  RoleOptions,
  RoleQuery,
  UserDetails,
  UserForm,
  UserIdBody,
  UserIdQuery,
  UserList,
  UserStats,
} from 'contracts';
import { readAudit, recordAudit } from '../management/audit';
import { coversOperator, mergeMemberships, roleChangeDenial, userDenial, type ManagementScope } from '../management/scope';
import {
  countExistingOperators,
  createUser,
  deactivateUser,
  deleteUser,
  detailsOf,
  editUser,
  emailInUse,
  listUsers,
  loadUser,
  operatorOptions,
  operatorsOfProjects,
  projectsOfOperators,
  reactivateUser,
  roleNameOf,
  roleOptions,
  scopeOfSession,
  userStats,
  type ManagedUser,
} from '../management/users';
import { actorOf, auditEvent, fail, sessionOf } from './support';

export const USER_MESSAGES = {
  created: 'New user created!',
  updated: 'User updated!',
  mailSent: 'Confirmation email sent!',
  deactivated: 'User deactivated.',
  reactivated: 'User reactivated.',
  deleted: 'User deleted.',
  notFound: 'User not found.',
  hidden: 'You are not allowed to manage this user.',
  administrator: 'Only an Administrator can change an Administrator.',
  foreignOperators: 'This user also works for operators you do not manage; ask an Administrator.',
  foreignRole: 'This user also works for operators you do not manage, and a role applies to all of them; ask an Administrator to change it.',
  invalidEmail: 'email is not a valid email address',
  emailTaken: 'A user with this email already exists.',
  emailFixed: 'The email address cannot be changed.',
  roleNotAllowed: (role: string) => `You cannot assign the role ${role}.`,
  unknownRole: 'roleId is not a known role',
  unknownOperator: 'operatorIds: an operator does not exist',
  foreignOperator: 'operatorIds: you can only assign your own operators',
  managerNeedsOperator: 'operatorIds: choose at least one of your operators',
  projectOutsideOperators: 'projectIds: a project does not belong to the chosen operators',
  alreadyConfirmed: 'This user has already confirmed their email.',
  alreadyDeactivated: 'This user is already deactivated.',
  notDeactivated: 'This user is not deactivated.',
  unconfirmedDeactivate: 'Only a user who confirmed their email can be deactivated; delete the account instead.',
  notYourself: (what: string) => `You cannot ${what} your own account.`,
  ownRole: 'You cannot change your own role.',
} as const;

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/** Specification §5: these fields are required (non-empty); the first missing one is reported. */
function missingField(values: Record<string, unknown>, fields: readonly string[]): string | null {
  for (const field of fields) {
    const value = values[field];
    if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) return `${field} is required`;
  }
  return null;
}

const tags = ['users'];
const security = [{ bearer: [] }];

/** Specification §7 "Users", scoped per docs/architecture.md#accounts-sessions-and-abuse-limits: Administrators see everyone, Managers their operators' users. */
export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const now = () => app.auth.clock();

  async function onlineUsers(): Promise<Set<number>> {
    return new Set(await app.notifications.onlineUserIds());
  }

  /** The user if the caller may act on them; otherwise the answer has been sent and null comes back. */
  async function targetUser(request: FastifyRequest, reply: FastifyReply, userId: number, change: 'view' | 'edit' | 'remove'): Promise<ManagedUser | null> {
    const user = await loadUser(db, userId);
    if (!user) {
      await fail(reply, 404, USER_MESSAGES.notFound);
      return null;
    }
    const denial = userDenial(await scopeOfSession(db, sessionOf(request)), user, change === 'remove' ? 'remove' : 'edit');
    if (denial === 'hidden' || (denial !== null && change !== 'view')) {
      const message =
        denial === 'administrator' ? USER_MESSAGES.administrator : denial === 'foreign-operators' ? USER_MESSAGES.foreignOperators : USER_MESSAGES.hidden;
      await fail(reply, 403, message);
      return null;
    }
    return user;
  }

  /**
   * The user whose access the caller takes away or gives back: never the caller's own account (checked
   * first, so the caller hears that rather than a scope refusal), and only one they may remove.
   * Otherwise the answer has been sent and null comes back.
   */
  async function otherUserToRemove(
    request: FastifyRequest,
    reply: FastifyReply,
    userId: number,
    what: 'deactivate' | 'reactivate' | 'delete',
  ): Promise<ManagedUser | null> {
    if (userId === sessionOf(request).userId) {
      await fail(reply, 400, USER_MESSAGES.notYourself(what));
      return null;
    }
    return targetUser(request, reply, userId, 'remove');
  }

  /**
   * Checks a form's role, operators and projects against what the caller may assign. Answers the
   * problem (status and message), or null when the form may be saved.
   */
  async function assignmentProblem(
    request: FastifyRequest,
    form: { roleId: number; operatorIds: readonly number[]; projectIds: readonly number[] },
    scope: ManagementScope,
  ): Promise<{ status: number; message: string } | null> {
    const session = sessionOf(request);
    const role = await roleNameOf(db, form.roleId);
    if (role === undefined || !isRole(role)) return { status: 400, message: USER_MESSAGES.unknownRole };
    if (!assignableRoles(session.principal).includes(role)) return { status: 403, message: USER_MESSAGES.roleNotAllowed(role) };
    const operatorIds = [...new Set(form.operatorIds)];
    if ((await countExistingOperators(db, operatorIds)) !== operatorIds.length) return { status: 400, message: USER_MESSAGES.unknownOperator };
    if (!operatorIds.every((id) => coversOperator(scope, id))) return { status: 403, message: USER_MESSAGES.foreignOperator };
    const projectIds = [...new Set(form.projectIds)];
    const projects = await operatorsOfProjects(db, projectIds);
    if (projects.size !== projectIds.length || [...projects.values()].some((operatorId) => !operatorIds.includes(operatorId)))
      return { status: 400, message: USER_MESSAGES.projectOutsideOperators };
    return null;
  }

  app.get(
    '/Users/GetUsers',
    {
      schema: {
        summary: 'The All Users table, scoped to the caller',
        tags,
        security,
        querystring: RoleQuery,
        response: { 200: UserList, 401: ErrorResponse, 403: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request) => listUsers(db, await scopeOfSession(db, sessionOf(request)), await onlineUsers()),
  );

  app.get(
    '/Users/GetUsersStats',
    {
      schema: {
        summary: 'Online, active (confirmed, not deactivated), client and registered users, scoped to the caller',
        tags,
        security,
        response: { 200: UserStats, 401: ErrorResponse, 403: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request) => userStats(db, await scopeOfSession(db, sessionOf(request)), await onlineUsers()),
  );

  app.get(
    '/Users/GetRoles',
    {
      schema: {
        summary: 'The roles the caller may assign',
        tags,
        security,
        querystring: RoleQuery,
        response: { 200: RoleOptions, 401: ErrorResponse, 403: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request) => roleOptions(db, assignableRoles(sessionOf(request).principal)),
  );

  app.get(
    '/Users/GetOperators',
    {
      schema: { summary: 'The operators the caller may assign', tags, security, response: { 200: OperatorOptions, 401: ErrorResponse, 403: ErrorResponse } },
      config: { access: 'canManage' },
    },
    async (request) => operatorOptions(db, await scopeOfSession(db, sessionOf(request))),
  );

  app.get(
    '/Users/GetOperatorProjects',
    {
      schema: {
        summary: 'Projects of the given operators (those the caller may assign)',
        description: '`operatorIds` repeated (`?operatorIds=1&operatorIds=2`) or comma-separated (`?operatorIds=1,2`).',
        tags,
        security,
        querystring: OperatorProjectsQuery,
        response: { 200: ProjectOptions, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request, reply) => {
      const parts = (request.query.operatorIds ?? [])
        .flatMap((text) => text.split(','))
        .map((t) => t.trim())
        .filter((t) => t !== '');
      if (parts.some((t) => !/^\d{1,10}$/.test(t))) return fail(reply, 400, 'operatorIds must be operator ids');
      const scope = await scopeOfSession(db, sessionOf(request));
      return projectsOfOperators(
        db,
        [...new Set(parts.map(Number))].filter((id) => coversOperator(scope, id)),
      );
    },
  );

  app.get(
    '/Users/GetUserById',
    {
      schema: {
        summary: 'One user as the edit dialog shows them',
        tags,
        security,
        querystring: UserIdQuery,
        response: { 200: UserDetails, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request, reply) => {
      const user = await targetUser(request, reply, request.query.userId, 'view');
      return user ? detailsOf(user) : reply;
    },
  );

  app.post(
    '/Users/CreateUser',
    {
      schema: {
        summary: 'Create a user and mail them the link that completes their registration',
        tags,
        security,
        body: UserForm,
        response: { 200: CreatedResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 409: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request, reply) => {
      const form = request.body;
      const missing = missingField(form, ['firstname', 'lastname', 'email', 'roleId']);
      if (missing) return fail(reply, 400, missing);
      const email = normalizeEmail(form.email);
      if (!EMAIL.test(email)) return fail(reply, 400, USER_MESSAGES.invalidEmail);
      const scope = await scopeOfSession(db, sessionOf(request));
      if (!scope.all && form.operatorIds.length === 0) return fail(reply, 400, USER_MESSAGES.managerNeedsOperator);
      const roleId = form.roleId as number;
      const problem = await assignmentProblem(request, { roleId, operatorIds: form.operatorIds, projectIds: form.projectIds }, scope);
      if (problem) return fail(reply, problem.status, problem.message);
      if (await emailInUse(db, email)) return fail(reply, 409, USER_MESSAGES.emailTaken);

      const firstname = form.firstname.trim();
      const lastname = form.lastname.trim();
      const id = await createUser(
        db,
        { firstname, lastname, email, roleId, operatorIds: form.operatorIds, projectIds: form.projectIds },
        actorOf(request),
        now(),
      );
      await mailConfirmationLink(app, { id, email, firstname, lastname });
      return { message: USER_MESSAGES.created, id };
    },
  );

  app.post(
    '/Users/EditUser',
    {
      schema: {
        summary: 'Change a user’s name, role, operators and projects (not the email)',
        description: 'A Manager’s changes apply within their operators; memberships of other operators are kept.',
        tags,
        security,
        body: EditUserRequest,
        response: { 200: MessageResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request, reply) => {
      const form = request.body;
      const missing = missingField(form, ['firstname', 'lastname', 'roleId']);
      if (missing) return fail(reply, 400, missing);
      const user = await targetUser(request, reply, form.id, 'edit');
      if (!user) return reply;
      if (form.email !== undefined && normalizeEmail(form.email) !== user.email) return fail(reply, 400, USER_MESSAGES.emailFixed);
      const session = sessionOf(request);
      const roleId = form.roleId as number;
      if (user.id === session.userId && roleId !== user.roleId) return fail(reply, 400, USER_MESSAGES.ownRole);
      const scope = await scopeOfSession(db, sessionOf(request));
      const problem = await assignmentProblem(request, { roleId, operatorIds: form.operatorIds, projectIds: form.projectIds }, scope);
      if (problem) return fail(reply, problem.status, problem.message);
      if (roleId !== user.roleId) {
        // assignmentProblem has just found the role, so it is there.
        const role = (await roleNameOf(db, roleId)) ?? '';
        if (isRole(role) && roleChangeDenial(scope, user, role) !== null) return fail(reply, 403, USER_MESSAGES.foreignRole);
      }

      const operatorIds = mergeMemberships(scope, user.operatorIds, form.operatorIds, (id) => id);
      const currentProjects = await operatorsOfProjects(db, user.projectIds);
      const projectIds = mergeMemberships(scope, user.projectIds, form.projectIds, (id) => currentProjects.get(id));
      await editUser(db, user, { firstname: form.firstname.trim(), lastname: form.lastname.trim(), roleId, operatorIds, projectIds }, actorOf(request), now());
      return { message: USER_MESSAGES.updated };
    },
  );

  app.post(
    '/Users/ResendConfirmationEmail',
    {
      schema: {
        summary: 'Mail a new registration link (the previous one stops working)',
        tags,
        security,
        body: UserIdBody,
        response: { 200: MessageResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request, reply) => {
      const user = await targetUser(request, reply, request.body.userId, 'edit');
      if (!user) return reply;
      if (user.emailConfirmed) return fail(reply, 409, USER_MESSAGES.alreadyConfirmed);
      await recordAudit(db, auditEvent(request, 'user', 'resend', user.id, `Resent the confirmation email to ${user.email}`), now());
      await mailConfirmationLink(app, user);
      return { message: USER_MESSAGES.mailSent };
    },
  );

  /** Ends the user's sessions everywhere: tokens refused from now on, open consoles told to sign out. */
  async function endSessionsOf(request: FastifyRequest, userId: number): Promise<void> {
    await app.notifications.endSessions([userId]).catch((error: unknown) => request.log.error({ err: error, userId }, 'could not tell open consoles'));
  }

  app.post(
    '/Users/DeactivateUser',
    {
      schema: {
        summary: 'Deactivate a confirmed user: they can no longer sign in and their sessions end',
        tags,
        security,
        body: UserIdBody,
        response: { 200: MessageResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request, reply) => {
      const user = await otherUserToRemove(request, reply, request.body.userId, 'deactivate');
      if (!user) return reply;
      if (!user.emailConfirmed) return fail(reply, 409, USER_MESSAGES.unconfirmedDeactivate);
      if (user.deactivated) return fail(reply, 409, USER_MESSAGES.alreadyDeactivated);
      await deactivateUser(db, user, actorOf(request), now());
      await endSessionsOf(request, user.id);
      return { message: USER_MESSAGES.deactivated };
    },
  );

  app.post(
    '/Users/ReactivateUser',
    {
      schema: {
        summary: 'Reactivate a deactivated user: they can sign in again (their old sessions stay ended)',
        tags,
        security,
        body: UserIdBody,
        response: { 200: MessageResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request, reply) => {
      // A deactivated caller has no session, so this is only ever someone else; said plainly all the same.
      // The same rule as deactivation: whoever may take a user's access away may give it back.
      const user = await otherUserToRemove(request, reply, request.body.userId, 'reactivate');
      if (!user) return reply;
      if (!user.deactivated) return fail(reply, 409, USER_MESSAGES.notDeactivated);
      await reactivateUser(db, user, actorOf(request), now());
      return { message: USER_MESSAGES.reactivated };
    },
  );

  app.delete(
    '/Users/DeleteUser',
    {
      schema: {
        summary: 'Delete a user: their sessions end and their memberships, tokens and notifications go with them',
        tags,
        security,
        body: UserIdBody,
        response: { 200: MessageResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request, reply) => {
      const user = await otherUserToRemove(request, reply, request.body.userId, 'delete');
      if (!user) return reply;
      await deleteUser(db, user, actorOf(request), now());
      await endSessionsOf(request, user.id);
      return { message: USER_MESSAGES.deleted };
    },
  );

  app.get(
    '/Users/GetAuditTrail',
    {
      schema: {
        summary: 'Every create, edit, delete and deactivation in the management area, newest first',
        tags,
        security,
        querystring: AuditTrailQuery,
        response: { 200: AuditTrail, 401: ErrorResponse, 403: ErrorResponse },
      },
      config: { access: 'canAdminister' },
    },
    async (request) => readAudit(db, request.query.page ?? 1, request.query.size ?? 100),
  );
};
