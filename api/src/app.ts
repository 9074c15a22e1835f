import { randomUUID } from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from './config';
import type { Dialect } from './db/database';
import type { Database } from './db/schema';
import { VERSION } from './lib/version';
import { healthRoutes } from './routes/health';
import { registerFrontends } from './web/frontends';

export interface Services {
  config: Config;
  db: Kysely<Database>;
  dialect: Dialect;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/** Builds the whole server (API, docs, console files) without listening, so tests can inject requests. */
export async function buildApp(services: Services, options: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            // Tokens and passwords never reach the logs.
            redact: ['req.headers.authorization', 'req.headers.cookie', 'req.query.access_token', 'body.password'],
          },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: false } },
    bodyLimit: 1_048_576,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('services', services);

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      const first = error.validation[0];
      const field = first?.instancePath
        ? first.instancePath.replace(/^\//, '').replace(/\//g, '.')
        : (first?.params as { missingProperty?: string } | undefined)?.missingProperty;
      const message = first?.keyword === 'required' ? `${field ?? 'field'} is required` : `${field ? `${field}: ` : ''}${first?.message ?? 'invalid input'}`;
      return reply.code(400).send({ message });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(status).send({ message: 'Something went wrong!' });
    }
    return reply.code(status).send({ message: error.message });
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Cellwise API', version: VERSION, description: 'HTTP API of the Cellwise console. Paths match case-insensitively.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(healthRoutes, { prefix: '/api' });
  await registerFrontends(app, config);
  return app;
}
