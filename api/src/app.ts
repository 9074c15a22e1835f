import { randomUUID } from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { registerAccessControl } from './auth/access';
import { systemClock, type Clock } from './auth/clock';
import { loadJwtSecret } from './auth/jwt';
import { AuthRuntime, createLoginThrottle } from './auth/runtime';
import type { LoginThrottle } from './auth/throttle';
import type { Config } from './config';
import type { Dialect } from './db/database';
import type { Database } from './db/schema';
import { VERSION } from './lib/version';
import { createMailer, type Mailer } from './mail';
import { registerNotifications, type RealtimeOptions } from './notifications';
import { accountRoutes } from './routes/account';
import { fileRoutes } from './routes/files';
import { trackingRoutes } from './routes/tracking';
import { healthRoutes } from './routes/health';
import { networkRoutes } from './routes/network';
import { operatorRoutes } from './routes/operators';
import { userRoutes } from './routes/users';
import { registerFrontends } from './web/frontends';

export interface Services {
  config: Config;
  db: Kysely<Database>;
  dialect: Dialect;
  /** Defaults to the system clock; tests move time to cross lockout windows and token lifetimes. */
  clock?: Clock;
  /** Defaults to the outbox or SMTP_URL, as configured. */
  mailer?: Mailer;
  /** Defaults to the database, or Redis when REDIS_URL is set. */
  loginThrottle?: LoginThrottle;
  /** Hub timings and Redis key prefix; defaults suit production, tests shorten or isolate them. */
  realtime?: RealtimeOptions;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    auth: AuthRuntime;
    mailer: Mailer;
  }
}

/** Request URLs as logged: a token in the query string (hub, download links) never reaches the logs. */
function loggableUrl(url: string | undefined): string | undefined {
  return url?.replace(/([?&]access_token=)[^&#]*/gi, '$1[Redacted]');
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
            serializers: {
              req: (req: { method: string; url?: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
                method: req.method,
                url: loggableUrl(req.url),
                host: req.host,
                remoteAddress: req.ip,
                remotePort: req.socket?.remotePort,
              }),
            },
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

  const clock = services.clock ?? systemClock;
  const loginThrottle =
    services.loginThrottle ?? createLoginThrottle(config, services.db, (error) => app.log.warn({ err: error }, 'Redis (login throttling) is unreachable'));
  const mailer = services.mailer ?? createMailer({ dataDir: config.dataDir, smtpUrl: config.smtpUrl });
  const auth = new AuthRuntime(services.db, loadJwtSecret(config), loginThrottle, clock);
  app.decorate('auth', auth);
  app.decorate('mailer', mailer);
  // Before any route, so no route escapes the access check.
  registerAccessControl(app, auth);
  app.addHook('onClose', async () => {
    // Close only what was made here; injected parts belong to whoever injected them.
    if (!services.mailer) await mailer.close();
    if (!services.loginThrottle) await loginThrottle.close();
  });

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

  // First among the routes: its API-activity hook (presence) must cover the routes registered after it.
  await registerNotifications(app, services.realtime);
  await app.register(healthRoutes, { prefix: '/api' });
  await app.register(networkRoutes, { prefix: '/api' });
  await app.register(accountRoutes, { prefix: '/api' });
  await app.register(userRoutes, { prefix: '/api' });
  await app.register(operatorRoutes, { prefix: '/api' });
  await app.register(fileRoutes, { prefix: '/api' });
  await app.register(trackingRoutes, { prefix: '/api' });
  await registerFrontends(app, config);
  return app;
}
