import { Type, type Static } from '@sinclair/typebox';
import { Email, Id, Password, ShortText } from './common';

export const RoleName = Type.Union([
  Type.Literal('Administrator'),
  Type.Literal('Manager'),
  Type.Literal('CellwiseHQ'),
  Type.Literal('CellwiseOS'),
  Type.Literal('Client'),
]);

export const LoginRequest = Type.Object({ email: Email, password: Password }, { additionalProperties: false });
export type LoginRequest = Static<typeof LoginRequest>;

export const TokenResponse = Type.Object({ token: Type.String() }, { additionalProperties: false });
export type TokenResponse = Static<typeof TokenResponse>;

export const OperatorRef = Type.Object({ id: Type.Integer(), name: Type.String() }, { additionalProperties: false });
export type OperatorRef = Static<typeof OperatorRef>;

/** The session user (specification §3): what `account/GetUserInfo` answers. */
export const UserInfo = Type.Object(
  {
    id: Type.Integer(),
    firstname: Type.String(),
    lastname: Type.String(),
    email: Type.String(),
    role: RoleName,
    operator: Type.Union([OperatorRef, Type.Null()]),
    projects: Type.Array(Type.String()),
    avatar: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type UserInfo = Static<typeof UserInfo>;

export const RecoverRequest = Type.Object({ email: Email }, { additionalProperties: false });
export type RecoverRequest = Static<typeof RecoverRequest>;

/** Registration and recovery confirmation payload (specification §3). `user` is the user id from the mailed link. */
export const ConfirmationRequest = Type.Object(
  { password: Password, rpassword: Password, token: ShortText(200), user: Type.Union([Id, Type.String({ maxLength: 20 })]) },
  { additionalProperties: false },
);
export type ConfirmationRequest = Static<typeof ConfirmationRequest>;

export const ChangePasswordRequest = Type.Object(
  { oldpassword: Password, newpassword: Password, confirmnewpassword: Password },
  { additionalProperties: false },
);
export type ChangePasswordRequest = Static<typeof ChangePasswordRequest>;

/** A password change refuses every older token, so the answer carries the caller's new one. */
export const ChangePasswordResponse = Type.Object({ message: Type.String(), token: Type.String() }, { additionalProperties: false });
export type ChangePasswordResponse = Static<typeof ChangePasswordResponse>;

export const UpdateSettingsRequest = Type.Object(
  { firstname: ShortText(100), lastname: ShortText(100), email: Type.Optional(Type.String({ maxLength: 254 })), operatorId: Id },
  { additionalProperties: false },
);
export type UpdateSettingsRequest = Static<typeof UpdateSettingsRequest>;

export const UserOperators = Type.Array(OperatorRef);
export type UserOperators = Static<typeof UserOperators>;

/** `Account/GetUserOperators?userId=`. */
export const GetUserOperatorsQuery = Type.Object({ userId: Id }, { additionalProperties: false });
export type GetUserOperatorsQuery = Static<typeof GetUserOperatorsQuery>;
