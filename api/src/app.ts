import { randomUUID } from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { registerAccessControl } from './auth/access';
import { registerRequestScope } from './db/operator-scope';
import { systemClock, type Clock } from './auth/clock';
import { loadJwtSecret } from './auth/jwt';
import { createCounterStore, Limiter, type CounterStore } from './auth/limits';
import { AuthRuntime } from './auth/runtime';
import type { Config } from './config';
import type { DatabaseOptions, Dialect } from './db/database';
import type { Database } from './db/schema';
import { ADDRESS_TOO_LONG_MESSAGE, BAD_ADDRESS_MESSAGE, containsNul, errorAnswerOf, NUL_MESSAGE } from './http/errors';
import { loggableUrl } from './http/redact';
import { validatorCompiler } from './http/validation';
import { registerJobs, type JobOptions } from './jobs';
import { VERSION } from './lib/version';
import { createMailer, type Mailer } from './mail';
import { registerNotifications, type RealtimeOptions } from './notifications';
import { accountRoutes } from './routes/account';
import { dashboardRoutes } from './routes/dashboards';
import { fileRoutes } from './routes/files';
import { tableSettingsRoutes } from './routes/table-settings';
import { trackingRoutes } from './routes/tracking';
import { healthRoutes } from './routes/health';
import { jobRoutes } from './routes/jobs';
import { monitoringRoutes } from './routes/monitoring';
import { alarmConsoleRoutes } from './routes/alarm-console';
import { networkRoutes } from './routes/network';
import { parserRoutes } from './routes/parser';
import { operatorRoutes } from './routes/operators';
import { optimizationRoutes } from './routes/optimization';
import { planningRoutes } from './routes/planning';
import { userRoutes } from './routes/users';
import { validationRoutes } from './routes/validation';
import { runScriptsRoutes } from './routes/run-scripts';
import { registerFrontends } from './web/frontends';
import { registerCompression } from './http/compression';
import { registerAdmission } from './http/admission';
import { registerEarlyAnswers } from './http/early-answers';
import { registerSecurityHeaders } from './http/security-headers';
import { registerMetrics } from './http/metrics';

export interface Services {
  config: Config;
  db: Kysely<Database>;
  dialect: Dialect;
  /** Defaults to the system clock; tests move time to cross lockout windows and token lifetimes. */
  clock?: Clock;
  /** Defaults to the outbox or SMTP_URL, as configured. */
  mailer?: Mailer;
  /** Counters of the abuse limits: in memory, or in Redis when REDIS_URL is set. */
  limitCounters?: CounterStore;
  /** Hub timings and Redis key prefix; defaults suit production, tests shorten or isolate them. */
  realtime?: RealtimeOptions;
  /** How the database was opened, so worker threads open their own connection to it (jobs run inline without it). */
  database?: DatabaseOptions;
  /** The job queue and timings; defaults to pg-boss on PostgreSQL, in process on SQLite. */
  jobs?: JobOptions;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    auth: AuthRuntime;
    mailer: Mailer;
  }
}

/** Trust the last `hops` proxies in front of the server (Fastify's types lack its numeric form). */
function hopsOfTrust(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
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
    bodyLimit: 1_048_576,
    // Errors of the router itself (before any handler or hook): the same `{ message }` shape, never Fastify's codes or the URL echoed.
    frameworkErrors: (error, _request, reply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      void (reply as FastifyReply)
        .code(tooLong ? 414 : 400)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ message: tooLong ? ADDRESS_TOO_LONG_MESSAGE : BAD_ADDRESS_MESSAGE }));
    },
    // Only behind a proxy the deployment names: otherwise X-Forwarded-For is the client's to invent, and rate limits per address would be void.
    trustProxy: typeof config.trustProxy === 'number' ? hopsOfTrust(config.trustProxy) : config.trustProxy,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler());

  app.decorate('services', services);

  const clock = services.clock ?? systemClock;
  const limitCounters = services.limitCounters ?? createCounterStore(config, (error) => app.log.warn({ err: error }, 'Redis (abuse limits) is unreachable'));
  const mailer = services.mailer ?? createMailer({ dataDir: config.dataDir, smtpUrl: config.smtpUrl });
  const auth = new AuthRuntime(services.db, loadJwtSecret(config), new Limiter(limitCounters), clock);
  app.decorate('auth', auth);
  app.decorate('mailer', mailer);
  // Before every other hook: requests start in the order they came, a few per turn of the event loop (issue 44).
  registerAdmission(app);
  // First of all hooks: every request's queries run in its own operator scope (docs/tenancy.md),
  // which the access check fills with the caller's current operator.
  registerRequestScope(app);
  // Before any route, so no route escapes the access check.
  registerAccessControl(app, auth);
  app.addHook('onClose', async () => {
    // Close only what was made here; injected parts belong to whoever injected them.
    if (!services.mailer) await mailer.close();
    if (!services.limitCounters) await limitCounters.close();
  });

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
  });

  registerCompression(app);
  registerEarlyAnswers(app);
  registerSecurityHeaders(app, config);
  // Before the routes, so its request hook times every one of them.
  registerMetrics(app, config);

  app.addHook('preValidation', async (request, reply) => {
    if (containsNul(request.query) || containsNul(request.params) || containsNul(request.body)) {
      return reply
        .code(400)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ message: NUL_MESSAGE }));
    }
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const answer = errorAnswerOf(error);
    if (answer.fault) request.log.error({ err: error }, 'request failed');
    // Sent as text, so no route's response schema can turn an error answer into a serialization fault.
    return reply
      .code(answer.status)
      .type('application/json; charset=utf-8')
      .send(JSON.stringify({ message: answer.message }));
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Cellwise API', version: VERSION, description: 'HTTP API of the Cellwise console. Paths match case-insensitively.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    // The docs page runs swagger-ui's scripts: only its own, from this origin. No upgrade-insecure-requests:
    // an embedded console on plain http (localhost) must still load them.
    staticCSP: true,
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
  });

  // First among the routes: its API-activity hook (presence) must cover the routes registered after it.
  await registerNotifications(app, services.realtime);
  // After notifications (a job tells its owner how it went), before the routes that start jobs.
  registerJobs(app, services.database, services.jobs);
  await app.register(healthRoutes, { prefix: '/api' });
  await app.register(networkRoutes, { prefix: '/api' });
  await app.register(accountRoutes, { prefix: '/api' });
  await app.register(userRoutes, { prefix: '/api' });
  await app.register(operatorRoutes, { prefix: '/api' });
  await app.register(fileRoutes, { prefix: '/api' });
  await app.register(trackingRoutes, { prefix: '/api' });
  await app.register(jobRoutes, { prefix: '/api' });
  await app.register(parserRoutes, { prefix: '/api' });
  await app.register(monitoringRoutes, { prefix: '/api' });
  await app.register(alarmConsoleRoutes, { prefix: '/api' });
  await app.register(planningRoutes, { prefix: '/api' });
  await app.register(validationRoutes, { prefix: '/api' });
  await app.register(optimizationRoutes, { prefix: '/api' });
  await app.register(runScriptsRoutes, { prefix: '/api' });
  await app.register(dashboardRoutes, { prefix: '/api' });
  await app.register(tableSettingsRoutes, { prefix: '/api' });
  await registerFrontends(app, config);
  return app;
}
