import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAdmission } from '../src/http/admission';

/**
 * Load fairness (issue 44): under load every request waits only for those that came before it, a new
 * connection included. Node accepts one connection per turn of the event loop; a turn that ran every
 * ready request at once made a newcomer wait behind thousands of requests of the connections already
 * open. Counted in requests answered first, not in milliseconds (speed is for bench/fairness.mjs).
 */
const BUSY_CONNECTIONS = 60;
/** Synchronous work per request, as a SQLite query on the main thread is. */
const WORK_MS = 2;

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

async function serve(admission: boolean): Promise<{ app: FastifyInstance; port: number; answered: () => number }> {
  const app = Fastify();
  if (admission) registerAdmission(app);
  let answered = 0;
  app.get('/work', async () => {
    busy(WORK_MS);
    answered += 1;
    return { answered };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port, answered: () => answered };
}

function get(agent: http.Agent, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/work', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('error', reject);
  });
}

/** Requests answered to the busy connections between a newcomer's request and its answer. */
async function answeredBeforeNewcomer(admission: boolean): Promise<number> {
  const { app, port, answered } = await serve(admission);
  const agent = new http.Agent({ keepAlive: true, maxSockets: BUSY_CONNECTIONS });
  let stop = false;
  const loops = Array.from({ length: BUSY_CONNECTIONS }, async () => {
    while (!stop) await get(agent, port);
  });
  try {
    // Every busy connection open and in its loop before the newcomer comes.
    while (answered() < BUSY_CONNECTIONS * 5) await new Promise((resolve) => setTimeout(resolve, 20));
    const newcomer = new http.Agent({ keepAlive: false });
    const before = answered();
    await get(newcomer, port);
    return answered() - before;
  } finally {
    stop = true;
    await Promise.all(loops);
    agent.destroy();
    await app.close();
  }
}

describe('admission: requests start in the order they came', () => {
  jest.setTimeout(120_000);

  test('a new connection to a busy server is answered after about one round of the open ones, not thousands', async () => {
    const ahead = await answeredBeforeNewcomer(true);
    // FIFO: the newcomer waits for the requests already in line (one per busy connection) and a few more.
    expect(ahead).toBeLessThan(BUSY_CONNECTIONS * 3);
  });

  test('every request is answered with its own answer, in its own async context', async () => {
    const app = Fastify();
    const context = new AsyncLocalStorage<string>();
    // Entered before the request waits its turn: it must still be its own when it resumes.
    app.addHook('onRequest', (request, _reply, done) => context.run((request.query as { n: string }).n, done));
    registerAdmission(app, 1);
    app.get('/echo', async (request) => ({ n: (request.query as { n: string }).n, seen: context.getStore() }));
    await app.ready();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => app.inject({ method: 'GET', url: `/echo?n=${n}` })));
    expect(answers.map((a) => a.json())).toEqual(Array.from({ length: 20 }, (_, n) => ({ n: String(n), seen: String(n) })));
    await app.close();
  });
});
