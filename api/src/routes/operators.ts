import fs from 'node:fs';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CreatedResponse,
  CreateOperatorRequest,
  CreateProjectRequest,
  DeleteOperatorRequest,
  DeleteProjectRequest,
  ErrorResponse,
  ImageResponse,
  MessageResponse,
  OperatorDetails,
  OperatorIdQuery,
  OperatorSummaries,
  UpdateImageRequest,
  UpdateOperatorRequest,
} from 'contracts';
import { resolveUpload } from '../files';
import {
  createOperator,
  createProject,
  deleteOperatorIfEmpty,
  deleteProjectIfEmpty,
  findOperator,
  findProject,
  listOperators,
  operatorDetails,
  operatorPicture,
  renameOperator,
  setOperatorPicture,
} from '../management/operators';
import { coversOperator } from '../management/scope';
import { scopeOfSession } from '../management/users';
import { actorOf, fail, sessionOf } from './support';

export const OPERATOR_MESSAGES = {
  created: 'New operator created!',
  updated: 'Operator updated!',
  deleted: 'Operator deleted.',
  projectCreated: 'New project created!',
  projectDeleted: 'Project deleted.',
  notFound: 'Operator not found.',
  projectNotFound: 'Project not found.',
  forbidden: 'You are not allowed to manage this operator.',
  nameTaken: (name: string) => `An operator named ${name} already exists.`,
  projectNameTaken: (name: string) => `This operator already has a project named ${name}.`,
  notEmpty: (name: string, remaining: string) => `${name} still has ${remaining}. Remove them first, then delete the operator.`,
  projectNotEmpty: (name: string, users: number) =>
    `${name} still has ${users} user${users === 1 ? '' : 's'}. Take them off the project first, then delete it.`,
  noImage: 'This operator has no picture.',
} as const;

/** PostgreSQL reports a unique-constraint breach as 23505, SQLite as SQLITE_CONSTRAINT_UNIQUE. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Sent as bytes, never serialised; the schema only documents it. */
const PngPicture = Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The PNG picture' });

const tags = ['operators'];
const security = [{ bearer: [] }];

/** Specification §7 "Operators", §6: Administrators manage every operator; Managers the operators they belong to. */
export const operatorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const now = () => app.auth.clock();

  /** The operator if it exists and is the caller's to manage; otherwise the answer is sent and null comes back. */
  async function ownOperator(request: FastifyRequest, reply: FastifyReply, operatorId: number): Promise<{ id: number; name: string } | null> {
    const operator = await findOperator(db, operatorId);
    if (!operator) {
      await fail(reply, 404, OPERATOR_MESSAGES.notFound);
      return null;
    }
    if (!coversOperator(await scopeOfSession(db, sessionOf(request)), operator.id)) {
      await fail(reply, 403, OPERATOR_MESSAGES.forbidden);
      return null;
    }
    return operator;
  }

  app.get(
    '/Operators/GetOperators',
    {
      schema: {
        summary: 'The operators the caller manages, with user and project counts',
        tags,
        security,
        response: { 200: OperatorSummaries, 401: ErrorResponse, 403: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request) => listOperators(db, await scopeOfSession(db, sessionOf(request))),
  );

  app.get(
    '/Operators/GetOperator',
    {
      schema: {
        summary: 'One operator with its projects and users',
        tags,
        security,
        querystring: OperatorIdQuery,
        response: { 200: OperatorDetails, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request, reply) => {
      const operator = await ownOperator(request, reply, request.query.operatorId);
      if (!operator) return reply;
      return (await operatorDetails(db, operator.id)) ?? fail(reply, 404, OPERATOR_MESSAGES.notFound);
    },
  );

  app.get(
    '/Operators/GetImage',
    {
      schema: {
        summary: 'The operator’s picture (image/png)',
        description: '`v` is the operator’s `avatar` (the picture’s version); with it the answer may be cached for good.',
        tags,
        security,
        querystring: OperatorIdQuery,
        produces: ['image/png'],
        response: { 200: PngPicture, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request, reply) => {
      const operator = await ownOperator(request, reply, request.query.operatorId);
      if (!operator) return reply;
      const picture = await operatorPicture(db, operator.id);
      if (!picture) return fail(reply, 404, OPERATOR_MESSAGES.noImage);
      const cacheable = request.query.v === picture.updated_at;
      return reply
        .type('image/png')
        .header('cache-control', cacheable ? 'private, max-age=31536000, immutable' : 'private, no-cache')
        .send(Buffer.from(picture.png));
    },
  );

  app.post(
    '/Operators/CreateOperator',
    {
      schema: {
        summary: 'Create an operator; a Manager who creates one becomes its member, so it is within their scope',
        tags,
        security,
        body: CreateOperatorRequest,
        response: { 200: CreatedResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 409: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request, reply) => {
      const name = request.body.name.trim();
      if (name === '') return fail(reply, 400, 'name is required');
      const session = sessionOf(request);
      const scope = await scopeOfSession(db, session);
      try {
        // A Manager's scope is the operators they belong to: without the membership they could not manage what they just created.
        const id = await createOperator(db, name, scope.all ? null : session.userId, actorOf(request), now());
        return { message: OPERATOR_MESSAGES.created, id };
      } catch (error) {
        if (isUniqueViolation(error)) return fail(reply, 409, OPERATOR_MESSAGES.nameTaken(name));
        throw error;
      }
    },
  );

  app.post(
    '/Operators/UpdateOperator',
    {
      schema: {
        summary: 'Rename an operator',
        tags,
        security,
        body: UpdateOperatorRequest,
        response: { 200: MessageResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request, reply) => {
      const name = request.body.name.trim();
      if (name === '') return fail(reply, 400, 'name is required');
      const operator = await ownOperator(request, reply, request.body.id);
      if (!operator) return reply;
      try {
        await renameOperator(db, operator, name, actorOf(request), now());
      } catch (error) {
        if (isUniqueViolation(error)) return fail(reply, 409, OPERATOR_MESSAGES.nameTaken(name));
        throw error;
      }
      return { message: OPERATOR_MESSAGES.updated };
    },
  );

  app.post(
    '/Operators/UpdateImage',
    {
      schema: {
        summary: 'Set or remove an operator’s picture',
        description:
          'Send the picture through File/Upload first (PNG, checked by content, at most 10,000,000 bytes), then `{ id, uploadId }`; ' +
          '`{ id, uploadId: null }` removes the picture.',
        tags,
        security,
        body: UpdateImageRequest,
        response: { 200: ImageResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request, reply) => {
      const operator = await ownOperator(request, reply, request.body.id);
      if (!operator) return reply;
      let picture: { name: string; bytes: Buffer } | null = null;
      if (request.body.uploadId !== null) {
        const upload = await resolveUpload(db, app.services.config.dataDir, request.body.uploadId, sessionOf(request).userId, 'png');
        // The file service has checked the size and that the content is a PNG.
        picture = { name: upload.name, bytes: await fs.promises.readFile(upload.file) };
      }
      const version = await setOperatorPicture(db, operator, picture, actorOf(request), now());
      return { message: OPERATOR_MESSAGES.updated, avatar: version };
    },
  );

  app.delete(
    '/Operators/DeleteOperator',
    {
      schema: {
        summary: 'Delete an operator of the caller that has no users (but the caller) and no projects left',
        tags,
        security,
        body: DeleteOperatorRequest,
        response: { 200: MessageResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request, reply) => {
      const operator = await ownOperator(request, reply, request.body.id);
      if (!operator) return reply;
      const remaining = await deleteOperatorIfEmpty(db, operator, actorOf(request), now());
      if (remaining !== '') return fail(reply, 409, OPERATOR_MESSAGES.notEmpty(operator.name, remaining));
      return { message: OPERATOR_MESSAGES.deleted };
    },
  );

  app.post(
    '/Operators/CreateProject',
    {
      schema: {
        summary: 'Add a project to an operator',
        tags,
        security,
        body: CreateProjectRequest,
        response: { 200: CreatedResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request, reply) => {
      const name = request.body.name.trim();
      if (name === '') return fail(reply, 400, 'name is required');
      const operator = await ownOperator(request, reply, request.body.operatorId);
      if (!operator) return reply;
      try {
        const id = await createProject(db, operator, name, actorOf(request), now());
        return { message: OPERATOR_MESSAGES.projectCreated, id };
      } catch (error) {
        if (isUniqueViolation(error)) return fail(reply, 409, OPERATOR_MESSAGES.projectNameTaken(name));
        throw error;
      }
    },
  );

  app.delete(
    '/Operators/DeleteProject',
    {
      schema: {
        summary: 'Delete a project nobody is on',
        tags,
        security,
        body: DeleteProjectRequest,
        response: { 200: MessageResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
      config: { access: 'canManage' },
    },
    async (request, reply) => {
      const project = await findProject(db, request.body.projectId);
      if (!project) return fail(reply, 404, OPERATOR_MESSAGES.projectNotFound);
      const operator = await ownOperator(request, reply, project.operator_id);
      if (!operator) return reply;
      const users = await deleteProjectIfEmpty(db, project, operator, actorOf(request), now());
      if (users > 0) return fail(reply, 409, OPERATOR_MESSAGES.projectNotEmpty(project.name, users));
      return { message: OPERATOR_MESSAGES.projectDeleted };
    },
  );
};
