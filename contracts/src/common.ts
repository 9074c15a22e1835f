import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';

/** Every error the API answers: `{ message }` with a status that means what it says (docs/architecture.md#api-conventions). */
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

/**
 * The fields of a row schema, in the order the schema declares them, less those that are no column
 * (`except`): a list's field list is its row's schema, stated once.
 */
export function fieldsOf<T extends TObject, E extends keyof T['properties'] & string = never>(
  row: T,
  except: readonly E[] = [],
): ReadonlyArray<Exclude<keyof T['properties'] & string, E>> {
  return Object.keys(row.properties).filter((field) => !(except as readonly string[]).includes(field)) as Array<Exclude<keyof T['properties'] & string, E>>;
}

/** One of the given field names (a list's sort field). */
export const fieldLiterals = (fields: readonly string[]) => Type.Union(fields.map((f) => Type.Literal(f)));

/**
 * Query of every server-side list (the shared table's): page 1-based (default 1); size default 10, at
 * most 100; sort a field of the row; order ascend | descend; filters JSON text of { field: text } —
 * rows whose field contains the text, any case (dates also as DD-MM-YYYY). Unknown fields or bad JSON: 400.
 */
export const listQuery = <T extends TSchema>(sortable: T) =>
  Type.Object(
    {
      page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
      size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
      sort: Type.Optional(sortable),
      order: Type.Optional(Type.Union([Type.Literal('ascend'), Type.Literal('descend')])),
      filters: Type.Optional(Type.String({ maxLength: 4000 })),
    },
    { additionalProperties: false },
  );

/** One page of a list: its rows and how many match in all. */
export const pageOf = <T extends TSchema>(row: T) =>
  Type.Object({ rows: Type.Array(row), total: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });
