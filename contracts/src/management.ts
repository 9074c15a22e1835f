import { Type, type Static } from '@sinclair/typebox';
import { RoleName } from './account';
import { Id, PageNumber } from './common';

/**
 * Users/* and Operators/* (specification §3 and §7). Every list is scoped on the server: an
 * Administrator sees everything, a Manager the operators they belong to, those operators' projects
 * and users (docs/architecture.md#accounts-sessions-and-abuse-limits).
 */

/** Names typed into the dialogs; blank ones are refused with 'is required' by the handlers. */
const Name = Type.String({ maxLength: 100 });

/** `role` is what the legacy client sent; the server answers for the caller's session whatever it says. */
export const RoleQuery = Type.Object({ role: Type.Optional(Type.String({ maxLength: 50 })) }, { additionalProperties: false });
export type RoleQuery = Static<typeof RoleQuery>;

export const RoleOption = Type.Object({ id: Id, name: RoleName }, { additionalProperties: false });
export type RoleOption = Static<typeof RoleOption>;
export const RoleOptions = Type.Array(RoleOption);

export const OperatorOption = Type.Object({ id: Id, name: Type.String() }, { additionalProperties: false });
export type OperatorOption = Static<typeof OperatorOption>;
export const OperatorOptions = Type.Array(OperatorOption);

export const ProjectOption = Type.Object({ id: Id, name: Type.String(), operatorId: Id, operatorName: Type.String() }, { additionalProperties: false });
export type ProjectOption = Static<typeof ProjectOption>;
export const ProjectOptions = Type.Array(ProjectOption);

/** `operatorIds` as repeated parameters or one comma-separated list. */
export const OperatorProjectsQuery = Type.Object(
  { operatorIds: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })) },
  { additionalProperties: false },
);
export type OperatorProjectsQuery = Static<typeof OperatorProjectsQuery>;

/** A row of the All Users table (specification §3), plus whether the account is deactivated. */
export const UserListRow = Type.Object(
  {
    id: Id,
    name: Type.String(),
    email: Type.String(),
    role: RoleName,
    /** Operator names, sorted, comma-separated. */
    operators: Type.String(),
    /** Email confirmed. */
    status: Type.Boolean(),
    online: Type.Boolean(),
    deactivated: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type UserListRow = Static<typeof UserListRow>;
export const UserList = Type.Array(UserListRow);

export const UserStats = Type.Object(
  { online: Type.Integer(), active: Type.Integer(), client: Type.Integer(), registered: Type.Integer() },
  { additionalProperties: false },
);
export type UserStats = Static<typeof UserStats>;

/** The user form (specification §3). */
export const UserForm = Type.Object(
  {
    firstname: Name,
    lastname: Name,
    email: Type.String({ maxLength: 254 }),
    roleId: Type.Union([Id, Type.Null()]),
    operatorIds: Type.Array(Id, { maxItems: 200 }),
    projectIds: Type.Array(Id, { maxItems: 1000 }),
  },
  { additionalProperties: false },
);
export type UserForm = Static<typeof UserForm>;

/** Editing: the same form with the user's id; the email cannot change, so it may be left out. */
export const EditUserRequest = Type.Object(
  {
    id: Id,
    firstname: Name,
    lastname: Name,
    email: Type.Optional(Type.String({ maxLength: 254 })),
    roleId: Type.Union([Id, Type.Null()]),
    operatorIds: Type.Array(Id, { maxItems: 200 }),
    projectIds: Type.Array(Id, { maxItems: 1000 }),
  },
  { additionalProperties: false },
);
export type EditUserRequest = Static<typeof EditUserRequest>;

export const UserDetails = Type.Object(
  {
    id: Id,
    firstname: Type.String(),
    lastname: Type.String(),
    email: Type.String(),
    roleId: Id,
    operatorIds: Type.Array(Id),
    projectIds: Type.Array(Id),
    status: Type.Boolean(),
    deactivated: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type UserDetails = Static<typeof UserDetails>;

export const UserIdQuery = Type.Object({ userId: Id }, { additionalProperties: false });
export type UserIdQuery = Static<typeof UserIdQuery>;
export const UserIdBody = Type.Object({ userId: Id }, { additionalProperties: false });
export type UserIdBody = Static<typeof UserIdBody>;

export const CreatedResponse = Type.Object({ message: Type.String(), id: Id }, { additionalProperties: false });
export type CreatedResponse = Static<typeof CreatedResponse>;

export const AuditEntry = Type.Object(
  {
    id: Id,
    at: Type.String(),
    actor: Type.String(),
    action: Type.String(),
    entity: Type.Union([Type.Literal('user'), Type.Literal('operator'), Type.Literal('project')]),
    entityId: Type.Union([Type.Integer(), Type.Null()]),
    summary: Type.String(),
    address: Type.String(),
  },
  { additionalProperties: false },
);
export type AuditEntry = Static<typeof AuditEntry>;
export const AuditTrail = Type.Object({ rows: Type.Array(AuditEntry), total: Type.Integer() }, { additionalProperties: false });
export type AuditTrail = Static<typeof AuditTrail>;
export const AuditTrailQuery = Type.Object(
  { page: Type.Optional(PageNumber({ default: 1 })), size: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })) },
  { additionalProperties: false },
);
export type AuditTrailQuery = Static<typeof AuditTrailQuery>;

// Operators

/**
 * An operator (specification §3). `avatar` is the picture's version (null: show initials); the picture
 * itself is `Operators/GetImage?operatorId=&v=<avatar>`.
 */
export const OperatorSummary = Type.Object(
  { id: Id, name: Type.String(), avatar: Type.Union([Type.String(), Type.Null()]), users: Type.Integer(), projects: Type.Integer() },
  { additionalProperties: false },
);
export type OperatorSummary = Static<typeof OperatorSummary>;
export const OperatorSummaries = Type.Array(OperatorSummary);

export const ProjectRow = Type.Object({ id: Id, name: Type.String(), users: Type.Integer(), operatorId: Id }, { additionalProperties: false });
export type ProjectRow = Static<typeof ProjectRow>;

export const OperatorDetails = Type.Object(
  {
    id: Id,
    name: Type.String(),
    avatar: Type.Union([Type.String(), Type.Null()]),
    users: Type.Integer(),
    projects: Type.Integer(),
    projectList: Type.Array(ProjectRow),
    userList: Type.Array(Type.Object({ id: Id, name: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type OperatorDetails = Static<typeof OperatorDetails>;

export const OperatorIdQuery = Type.Object({ operatorId: Id, v: Type.Optional(Type.String({ maxLength: 40 })) }, { additionalProperties: false });
export type OperatorIdQuery = Static<typeof OperatorIdQuery>;

export const CreateOperatorRequest = Type.Object({ name: Name }, { additionalProperties: false });
export type CreateOperatorRequest = Static<typeof CreateOperatorRequest>;

export const UpdateOperatorRequest = Type.Object({ id: Id, name: Name }, { additionalProperties: false });
export type UpdateOperatorRequest = Static<typeof UpdateOperatorRequest>;

/**
 * Operators/UpdateImage: `uploadId` of a .png sent through File/Upload sets the picture (the file
 * service checks size and content once for every upload), null removes it.
 */
export const UpdateImageRequest = Type.Object(
  { id: Id, uploadId: Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()]) },
  { additionalProperties: false },
);
export type UpdateImageRequest = Static<typeof UpdateImageRequest>;

export const ImageResponse = Type.Object({ message: Type.String(), avatar: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false });
export type ImageResponse = Static<typeof ImageResponse>;

/** The legacy client sent the whole operator; its id is what identifies it. */
export const DeleteOperatorRequest = Type.Object({ id: Id }, { additionalProperties: false });
export type DeleteOperatorRequest = Static<typeof DeleteOperatorRequest>;

export const CreateProjectRequest = Type.Object({ name: Name, operatorId: Id }, { additionalProperties: false });
export type CreateProjectRequest = Static<typeof CreateProjectRequest>;

export const DeleteProjectRequest = Type.Object({ projectId: Id }, { additionalProperties: false });
export type DeleteProjectRequest = Static<typeof DeleteProjectRequest>;
