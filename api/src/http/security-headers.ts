import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/**
 * Headers every answer gets from the server, whatever route made it:
 * - `Strict-Transport-Security` when HSTS_MAX_AGE is set and the request came over https (directly, or
 *   through a proxy named by TRUST_PROXY that says so in X-Forwarded-Proto): browsers then never try
 *   plain http for the console again. Over http it would be ignored, and a console on localhost must
 *   not be pinned to https.
 * - `Cache-Control: no-store` on API answers that set no caching of their own: every one of them is
 *   read with someone's session (who they are, their users, their notifications), and a shared or
 *   back-button cache must keep none of it.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'hstsMaxAge'>): void {
  const hsts = config.hstsMaxAge === null ? null : `max-age=${config.hstsMaxAge}`;
  app.addHook('onSend', async (request, reply, payload) => {
    if (hsts !== null && request.protocol === 'https') reply.header('Strict-Transport-Security', hsts);
    if (/^\/api\//i.test(request.url) && !reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
    return payload;
  });
}
