import { AsyncResource } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

/**
 * Requests started per turn of the event loop while others wait. Small, because a turn lasts as long
 * as the requests it starts (on SQLite their queries run synchronously), and the next connection is
 * accepted only at the next turn.
 */
export const STARTS_PER_TURN = 2;

/**
 * Turns in a row that start nothing while connections are being accepted. libuv takes one connection
 * per turn, so a burst of new connections is taken in quick, empty turns (microseconds each) rather
 * than one per turn of requests; bounded, so clients that open a connection per request still get on.
 */
export const ACCEPT_TURNS = 16;

export interface AdmissionStats {
  /** Requests waiting for their turn right now. */
  waiting: number;
  /** Requests that had to wait since the start. */
  queued: number;
}

/**
 * Requests start in the order they arrived, at most `perTurn` of them per turn of the event loop; the
 * rest wait in one first-in-first-out line (a connection carries one request at a time, so the line
 * is never longer than the open connections).
 *
 * Without it a loaded server was unfair twice over. Node (libuv 1.45+) accepts one new connection per
 * turn of the loop, and a turn ran every request that had arrived, so with 200 busy connections a turn
 * lasted hundreds of milliseconds and a new connection waited hundreds of turns: its first request
 * took 10 s and more while the others were answered in 0.3 s. And requests were served in the order
 * the poller listed their sockets, not the order they came in. Now a turn is a few requests long, a new
 * connection is taken within milliseconds, and every request waits only for those that came before it.
 *
 * Only the start is metered: a request that then waits (a long poll, an upload's body, a job's end, a
 * PostgreSQL query) holds nothing, so nothing waits behind a long request. Registered before every
 * other hook, so a waiting request has cost nothing but its parsing; each resumes in its own async
 * context, as if it had never waited.
 */
export function registerAdmission(app: FastifyInstance, perTurn = STARTS_PER_TURN): AdmissionStats {
  const stats: AdmissionStats = { waiting: 0, queued: 0 };
  const line: Array<() => void> = [];
  let head = 0;
  let startedThisTurn = 0;
  let turnScheduled = false;
  let acceptedThisTurn = false;
  let acceptTurns = 0;

  const turn = () => {
    turnScheduled = false;
    startedThisTurn = 0;
    if (acceptedThisTurn && acceptTurns < ACCEPT_TURNS && head < line.length) {
      // More connections may wait in the listen queue: take the next one before starting anything.
      acceptedThisTurn = false;
      acceptTurns += 1;
      startedThisTurn = perTurn;
      schedule();
      return;
    }
    acceptedThisTurn = false;
    acceptTurns = 0;
    while (startedThisTurn < perTurn && head < line.length) {
      const start = line[head]!;
      line[head] = noop;
      head += 1;
      startedThisTurn += 1;
      stats.waiting -= 1;
      start();
    }
    // Compacted now and then, not on every start: shifting a long line is O(n).
    if (head === line.length) {
      line.length = 0;
      head = 0;
    } else if (head > 1024 && head * 2 > line.length) {
      line.splice(0, head);
      head = 0;
    }
    // Started requests count against this turn until the next: scheduled again while anything started.
    if (startedThisTurn > 0 || head < line.length) schedule();
  };
  const schedule = () => {
    if (turnScheduled) return;
    turnScheduled = true;
    setImmediate(turn);
  };

  app.server.on('connection', () => {
    acceptedThisTurn = true;
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    if (head === line.length && startedThisTurn < perTurn) {
      startedThisTurn += 1;
      schedule();
      done();
      return;
    }
    stats.waiting += 1;
    stats.queued += 1;
    line.push(AsyncResource.bind(() => done()));
    schedule();
  });
  return stats;
}

function noop(): void {}
