import type { FastifyError } from 'fastify';

/**
 * The one error path (docs/architecture.md#api-conventions): every failure becomes a status and `{ message }`. What the caller
 * sent wrong is a 4xx that says so; only the server's own faults are 5xx, and those never show their
 * cause to the client.
 */
export interface ErrorAnswer {
  status: number;
  message: string;
  /** A fault of the server: log it with the request id. */
  fault: boolean;
}

export const SERVER_FAULT_MESSAGE = 'Something went wrong!';
export const MALFORMED_MULTIPART_MESSAGE = 'The upload could not be read: the multipart body is malformed or incomplete. Send it again.';

/**
 * busboy (under @fastify/multipart) throws plain Errors, without a status, for bodies it cannot
 * parse; these are the caller's fault however they are worded, so they are recognised by origin.
 */
const MULTIPART_PARSE_FAILURES = [/^Multipart: Boundary not found$/, /^Unexpected end of (multipart data|form)$/, /^Malformed part header$/, /multipart/i];

function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  const field = first?.instancePath
    ? first.instancePath.replace(/^\//, '').replace(/\//g, '.')
    : (first?.params as { missingProperty?: string } | undefined)?.missingProperty;
  if (first?.keyword === 'required') return `${field ?? 'field'} is required`;
  if (first?.keyword === 'additionalProperties') {
    const extra = (first.params as { additionalProperty?: string } | undefined)?.additionalProperty;
    return `Unknown field${extra ? ` "${extra.slice(0, 64)}"` : ''}: remove it and try again.`;
  }
  return `${field ? `${field}: ` : ''}${first?.message ?? 'invalid input'}`;
}

export function errorAnswerOf(error: FastifyError): ErrorAnswer {
  if (error.validation) return { status: 400, message: validationMessage(error), fault: false };
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status >= 400 && status < 500) return { status, message: error.message, fault: false };
  if (status === 500 && !error.code && MULTIPART_PARSE_FAILURES.some((pattern) => pattern.test(error.message ?? ''))) {
    return { status: 400, message: MALFORMED_MULTIPART_MESSAGE, fault: false };
  }
  return { status: status >= 500 && status < 600 ? status : 500, message: SERVER_FAULT_MESSAGE, fault: true };
}

export const NUL_MESSAGE = 'Text must not contain NUL characters.';
export const ADDRESS_TOO_LONG_MESSAGE = 'The address is too long.';
export const BAD_ADDRESS_MESSAGE = 'The address is not valid.';

/**
 * Whether a parsed query, path or JSON body holds a NUL anywhere (keys included). No field of this
 * API means one, PostgreSQL cannot store one in text, and SQLite would store it silently: refused once,
 * here, for every route. Walks without recursion, so a deeply nested body costs no stack.
 */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  let visited = 0;
  while (pending.length > 0) {
    const next = pending.pop();
    // Bodies are at most 1 MB, so this bound is never what stops a real request.
    if (++visited > 1_000_000) return false;
    if (typeof next === 'string') {
      if (next.includes('\u0000')) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (next !== null && typeof next === 'object' && !Buffer.isBuffer(next)) {
      for (const [key, item] of Object.entries(next)) {
        if (key.includes('\u0000')) return true;
        pending.push(item);
      }
    }
  }
  return false;
}
