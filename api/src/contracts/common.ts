import { Type, type Static } from '@sinclair/typebox';

/** Every error the API answers: `{ message }` with a status that means what it says (DESIGN §3). */
export const ErrorResponse = Type.Object({ message: Type.String() }, { additionalProperties: false, $id: 'ErrorResponse' });
export type ErrorResponse = Static<typeof ErrorResponse>;

export const MessageResponse = Type.Object({ message: Type.String() }, { additionalProperties: false });
export type MessageResponse = Static<typeof MessageResponse>;

/** Strings a user types: bounded so nothing unbounded reaches argon2 or the database. */
export const ShortText = (max = 100) => Type.String({ minLength: 1, maxLength: max });
export const Email = Type.String({ minLength: 3, maxLength: 254, format: 'email' });
export const Password = Type.String({ minLength: 1, maxLength: 256 });

/** A database id in a request: bounded to the columns' range, so a huge number is a 400, never a database error. */
export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
/** A 1-based page number in a request: far beyond any table, and never an offset the database refuses. */
export const PageNumber = (options: { default?: number } = {}) => Type.Integer({ minimum: 1, maximum: 1_000_000, ...options });
