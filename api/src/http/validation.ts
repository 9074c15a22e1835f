import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';

/** What Fastify's own compiler does, less coercion of arrays where JSON already has real types. */
const COMMON: Options = { removeAdditional: false, useDefaults: true, allErrors: false, addUsedSchema: false, strict: false };

function compilerWith(options: Options): Ajv {
  const ajv = new Ajv({ ...COMMON, ...options });
  addFormats(ajv);
  return ajv;
}

/**
 * Query strings and path parameters arrive as text, and a repeated parameter (`?operatorIds=1&operatorIds=2`)
 * as an array, so they are coerced. A JSON body is not coerced into arrays or out of them: `"user": ["x"]`
 * where a scalar is expected is refused instead of reaching a handler that trusts its types.
 */
export function validatorCompiler(): FastifySchemaCompiler<FastifySchema> {
  const byPart = {
    body: compilerWith({ coerceTypes: true }),
    text: compilerWith({ coerceTypes: 'array' }),
  };
  return ({ schema, httpPart }) => (httpPart === 'body' ? byPart.body : byPart.text).compile(schema as object);
}
