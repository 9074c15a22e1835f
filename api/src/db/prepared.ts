import type { CompiledQuery, Kysely, QueryResult } from 'kysely';
import { currentOperatorId, isUnscoped, runInOperator, runUnscoped } from './operator-scope';
import type { Database } from './schema';

/**
 * A value a prepared statement is built with and filled in at each run ({@link PreparedReads}). The
 * object itself is the placeholder: Kysely passes a value through to the compiled parameters as it is.
 */
export class Slot {
  constructor(readonly name: string) {}
}

/** The placeholder of the run's value `name`. */
export const slot = (name: string): Slot => new Slot(name);

/**
 * The operator id the statements are compiled for: the operator scope writes it wherever the current
 * operator goes (docs/tenancy.md), and each run puts its own operator there. No operator has it: ids are
 * positive, and -1 is the scope's "no current operator".
 */
const OPERATOR_SENTINEL = -2_147_480_013;
/** The value the scope reads with when the user has no current operator: matches no row. */
const NO_OPERATOR = -1;

/** A statement builder or raw SQL: both compile against a database handle (a builder ignores it). */
export interface Buildable {
  compile(db: Kysely<Database>): CompiledQuery<unknown>;
}

/** Statements of one shape, compiled. */
type Compiled<K extends string> = Readonly<Record<K, CompiledQuery<unknown>>>;

/** Shapes kept per adapter and mode; oldest first, so the first key is the one to drop. */
const MAX_SHAPES = 500;

/**
 * Read statements built and compiled once per shape, then run with each call's values (issue 44): on the
 * list routes, building a Kysely statement, walking it through the operator scope and compiling it cost
 * more CPU than SQLite's run of it. A shape is everything that changes the SQL text (the sort, which
 * fields are filtered); values (the filter patterns, the page, the operator) are {@link Slot}s.
 *
 * The operator scope still writes every statement: each shape is compiled in the scope, with a sentinel
 * operator that each run replaces by its own, so a statement can only ever read the caller's operator.
 * A statement on tenant data run outside a scope (or before the request's operator is known) is built
 * as usual, and the scope refuses it as usual; one on other tables (the session's user) runs anywhere. Reads only: a write of a user without a current operator must
 * fail in the scope, which a prepared statement would skip.
 */
export class PreparedReads<K extends string> {
  private readonly shapes = new WeakMap<object, Map<string, { statements: Compiled<K>; needsOperator: boolean }>>();

  constructor(private readonly build: (db: Kysely<Database>, shape: string) => Readonly<Record<K, Buildable>>) {}

  /** The statements of `shape` with `values` filled in, ready for {@link runPrepared}. */
  statements(db: Kysely<Database>, shape: string, values: Readonly<Record<string, unknown>>): Readonly<Record<K, CompiledQuery<unknown>>> {
    const unscoped = isUnscoped();
    const adapter = db.getExecutor().adapter;
    let byShape = this.shapes.get(adapter);
    if (!byShape) this.shapes.set(adapter, (byShape = new Map()));
    const key = `${unscoped ? 'u' : 's'}\u0000${shape}`;
    let entry = byShape.get(key);
    if (!entry) {
      const make = () => compileAll(db, this.build(db, shape));
      const statements = unscoped ? runUnscoped(make) : runInOperator(OPERATOR_SENTINEL, make);
      const all = Object.values<CompiledQuery<unknown>>(statements);
      for (const statement of all) assertRead(statement);
      // The scope writes the operator into every statement on tenant data: without it, none is read.
      entry = { statements, needsOperator: all.some((statement) => statement.parameters.includes(OPERATOR_SENTINEL)) };
      if (byShape.size >= MAX_SHAPES) byShape.delete(byShape.keys().next().value!);
      byShape.set(key, entry);
    }
    const operator = unscoped ? NO_OPERATOR : currentOperatorId();
    // Tenant data with no scope known: built as any other statement, so the scope refuses it as usual.
    if (entry.needsOperator && operator === undefined) return compileAll(db, this.build(db, shape));
    const operatorValue = operator ?? NO_OPERATOR;
    const filled = {} as Record<K, CompiledQuery<unknown>>;
    for (const [name, statement] of Object.entries<CompiledQuery<unknown>>(entry.statements)) {
      filled[name as K] = { ...statement, parameters: statement.parameters.map((p) => fill(p, values, operatorValue)) };
    }
    return filled;
  }
}

function fill(parameter: unknown, values: Readonly<Record<string, unknown>>, operator: number): unknown {
  if (parameter === OPERATOR_SENTINEL) return operator;
  if (!(parameter instanceof Slot)) return parameter;
  if (!Object.hasOwn(values, parameter.name)) throw new Error(`prepared statement: no value for ${parameter.name}`);
  return values[parameter.name];
}

function compileAll<K extends string>(db: Kysely<Database>, built: Readonly<Record<K, Buildable>>): Compiled<K> {
  const out = {} as Record<K, CompiledQuery<unknown>>;
  for (const [name, statement] of Object.entries<Buildable>(built)) {
    out[name as K] = statement.compile(db);
  }
  return out;
}

function assertRead(statement: CompiledQuery<unknown>): void {
  const kind = statement.query.kind;
  const reads = kind === 'SelectQueryNode' || (kind === 'RawNode' && /^\s*(select|with)\b/i.test(statement.sql));
  if (!reads) throw new Error(`prepared statements are reads only (got ${kind}: ${statement.sql.slice(0, 60)})`);
}

/** Runs a statement {@link PreparedReads.statements} made. */
export function runPrepared<R>(db: Kysely<Database>, statement: CompiledQuery<unknown>): Promise<QueryResult<R>> {
  return db.executeQuery(statement as CompiledQuery<R>);
}
