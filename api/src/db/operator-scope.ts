import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import {
  AliasNode,
  BinaryOperationNode,
  ColumnNode,
  IdentifierNode,
  JoinNode,
  OperationNodeTransformer,
  OperatorNode,
  OrNode,
  SelectionNode,
  UnaryOperationNode,
  ParensNode,
  ReferenceNode,
  SelectQueryNode,
  TableNode,
  ValueListNode,
  ValueNode,
  ValuesNode,
  WhereNode,
  type DeleteQueryNode,
  type InsertQueryNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RawNode,
  type RootOperationNode,
  type UnknownRow,
  type UpdateQueryNode,
  type ColumnType,
} from 'kysely';
import { sql, type RawBuilder } from 'kysely';

/**
 * Operators are tenants of the engineering data (docs/tenancy.md, docs/tenancy.md). Every table below holds
 * rows of one operator in its `operator_id` column, and every query the API runs on one of them is
 * rewritten here to the operator of the work in progress, so no route, job or engine can forget it:
 *   - select / update / delete: `operator_id = <current>` for each tenant table in FROM, JOIN and USING
 *     (joins get it in their ON, so a left join stays a left join);
 *   - insert: the current operator is added as `operator_id` (or, when the code names it, checked);
 *   - raw SQL naming a tenant table must carry one `scopedTo(alias)` per table it names, or it throws.
 * The operator of the work comes from an AsyncLocalStorage: a request's is its user's current operator
 * (read from the user record by the access hook), a job's is the one it was submitted in. Work with no
 * operator that touches tenant data throws, so a missing scope is a loud 500 in tests, never a leak.
 */
export const TENANT_TABLES: ReadonlySet<string> = new Set([
  'network_sites',
  'network_site_shares',
  'network_nodes',
  'network_cells',
  'network_cell_alt_dns',
  'network_external_cells',
  'network_relations',
  'network_imports',
  'monitoring_parses',
  'monitoring_nodes',
  'monitoring_alarms',
  // SQLite only (migration 0021): the alarms' trigram index, whose operator_id is read from the alarm row.
  'monitoring_alarms_trigrams',
  'monitoring_alarm_acks',
  'monitoring_states',
  'monitoring_attributes',
  'monitoring_findings',
  'monitoring_ret',
  'monitoring_performance',
  'monitoring_site_statuses',
  'monitoring_alarm_changes',
  'monitoring_digest_schedules',
  'tracking_commissioning_plan',
  'tracking_tracker',
  'tracking_work_orders',
  'tracking_wo_delta',
  'tracking_stamps',
  'runs',
  'planned_cells',
  'run_findings',
]);

export const OPERATOR_COLUMN = 'operator_id';

/**
 * The type of OPERATOR_COLUMN in a tenant table's row: read as a number; on insert this scope fills it
 * in; never updated (a row does not change operator). Here, beside what fills it, so the table modules
 * need not import the schema that imports them.
 */
export type TenantColumn = ColumnType<number, number | undefined, never>;

interface ScopeState {
  /** The operator of the work; null: signed in without a current operator (sees nothing, writes nothing). */
  operatorId: number | null;
  /** System work across operators (migrations, seed, purges, metrics): no rewriting at all. */
  unscoped: boolean;
  /** Set on requests: the access hook fills operatorId once the session is known. */
  pending: boolean;
}

const storage = new AsyncLocalStorage<ScopeState>();

/**
 * Test suites write and read rows directly, outside any request or job; they all work in one operator,
 * the first the seed creates (api/test/support/operator.ts sets it). The server never sets it: there,
 * tenant data touched outside a scope throws.
 */
let outsideScopes: ScopeState | undefined;

export function setOperatorOutsideScopesForTests(operatorId: number | null): void {
  outsideScopes = operatorId === null ? undefined : { operatorId, unscoped: false, pending: false };
}

function stateNow(): ScopeState | undefined {
  return storage.getStore() ?? outsideScopes;
}

/** Thrown when tenant data is touched by work that has no operator: a programming error, never a user's. */
export class OperatorScopeError extends Error {}

/** Thrown when a signed-in user without a current operator writes engineering data: answered 409. */
export class NoCurrentOperatorError extends Error {
  readonly statusCode = 409;

  constructor() {
    super('You have no current operator: choose one in Settings first.');
  }
}

/** Runs `work` as work of one operator (a job, a test, a worker-thread task). */
export function runInOperator<T>(operatorId: number | null, work: () => T): T {
  return storage.run({ operatorId, unscoped: false, pending: false }, work);
}

/** Runs `work` across every operator's data, unrewritten: only for system work that must see it all. */
export function runUnscoped<T>(work: () => T): T {
  return storage.run({ operatorId: null, unscoped: true, pending: false }, work);
}

/** The operator of the work in progress, or undefined outside any scope (and for unscoped work). */
export function currentOperatorId(): number | null | undefined {
  const state = stateNow();
  if (!state || state.unscoped || state.pending) return undefined;
  return state.operatorId;
}

/** The operator of the work in progress; throws when there is none (a write needs one). */
export function requireOperatorId(): number {
  const state = stateNow();
  if (!state || state.unscoped || state.pending) throw new OperatorScopeError('engineering data written outside an operator scope');
  if (state.operatorId === null) throw new NoCurrentOperatorError();
  return state.operatorId;
}

/** Whether the work in progress runs unscoped (system work). */
export function isUnscoped(): boolean {
  return stateNow()?.unscoped === true;
}

/**
 * Request scope: every request runs in a state of its own from its first hook, so everything after
 * (hooks, handler, the queries they start) shares it; the access hook then names the operator. Body
 * parsing runs on stream events that lose the async context, so preValidation re-enters it, as
 * @fastify/request-context does.
 */
export interface ScopeHookHost {
  addHook(name: 'onRequest', hook: (request: object, reply: unknown, done: () => void) => void): unknown;
  addHook(name: 'preValidation', hook: (request: object, reply: unknown, done: () => void) => void): unknown;
}

const RESOURCE = Symbol('operatorScopeResource');

export function registerRequestScope(app: ScopeHookHost): void {
  app.addHook('onRequest', (request, _reply, done) => {
    storage.run({ operatorId: null, unscoped: false, pending: true }, () => {
      (request as Record<symbol, AsyncResource>)[RESOURCE] = new AsyncResource('cellwise-operator-scope');
      done();
    });
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const resource = (request as Record<symbol, AsyncResource | undefined>)[RESOURCE];
    if (resource) resource.runInAsyncScope(done);
    else done();
  });
}

/** Called by the access hook once the caller is known: the request's work is now that operator's. */
export function enterRequestOperator(operatorId: number | null): void {
  const state = storage.getStore();
  if (!state) throw new OperatorScopeError('enterRequestOperator outside a request scope');
  state.operatorId = operatorId;
  state.pending = false;
}

// ---------------------------------------------------------------------------------------------------
// Raw SQL

const SCOPE_MARK = Symbol('operatorScopeMark');
type MarkedValue = ValueNode & { [SCOPE_MARK]?: true };

/**
 * `<alias>.operator_id = <current operator>` for raw SQL (and for a tenant table referenced through a
 * raw fragment in a builder query). Each tenant table a raw statement names needs one.
 */
export function scopedTo(alias: string): RawBuilder<boolean> {
  const state = stateNow();
  if (state?.unscoped) return sql<boolean>`1 = 1`;
  const value = { ...ValueNode.create(operatorValueOf(requireReadableOperator())) } as MarkedValue;
  Object.defineProperty(value, SCOPE_MARK, { value: true, enumerable: false });
  Object.freeze(value);
  const marker = { toOperationNode: () => value };
  const column = alias === '' ? sql.ref(OPERATOR_COLUMN) : sql.ref(`${alias}.${OPERATOR_COLUMN}`);
  return sql<boolean>`${column} = ${marker}`;
}

function requireReadableOperator(): number | null {
  const state = stateNow();
  if (!state || state.pending) throw new OperatorScopeError('engineering data read outside an operator scope');
  return state.operatorId;
}

const TENANT_WORD = new RegExp(`\\b(${[...TENANT_TABLES].join('|')})\\b`, 'g');

/**
 * The tenant tables a raw fragment names. Fragments are the literal parts of `sql` templates, the same
 * strings on every request, so each is scanned once: scanning every list's SQL text with this regular
 * expression on every query cost as much CPU as SQLite's own work on the overall site summary (issue 44).
 * Fragments built at run time (sql.raw) could be endless, so the cache stops growing at a bound.
 */
const FRAGMENT_MENTIONS = new Map<string, readonly string[]>();
const MAX_CACHED_FRAGMENTS = 10_000;
const NO_MENTIONS: readonly string[] = Object.freeze([]);

function fragmentMentions(fragment: string): readonly string[] {
  const cached = FRAGMENT_MENTIONS.get(fragment);
  if (cached) return cached;
  const found = [...fragment.matchAll(TENANT_WORD)].map((match) => match[1]!);
  const mentions = found.length === 0 ? NO_MENTIONS : Object.freeze(found);
  if (FRAGMENT_MENTIONS.size < MAX_CACHED_FRAGMENTS) FRAGMENT_MENTIONS.set(fragment, mentions);
  return mentions;
}

function tenantMentions(node: OperationNode): { mentions: string[]; marks: number } {
  const found = { mentions: [] as string[], marks: 0 };
  const visit = (n: OperationNode | undefined): void => {
    if (!n) return;
    if (n.kind === 'RawNode') {
      const raw = n as RawNode;
      for (const fragment of raw.sqlFragments) found.mentions.push(...fragmentMentions(fragment));
      for (const parameter of raw.parameters) visit(parameter);
      return;
    }
    if (n.kind === 'ValueNode' && (n as MarkedValue)[SCOPE_MARK] === true) {
      found.marks += 1;
      return;
    }
    if (TableNode.is(n)) {
      if (TENANT_TABLES.has(n.table.identifier.name)) found.mentions.push(n.table.identifier.name);
      return;
    }
    // Builder nodes inside a raw fragment (sql.ref, sql.table, nested queries) are walked by the transformer itself.
    if (n.kind === 'ReferenceNode' || n.kind === 'IdentifierNode' || n.kind === 'ColumnNode') return;
  };
  visit(node);
  return found;
}

// ---------------------------------------------------------------------------------------------------
// The rewriting

function tableNameOf(node: OperationNode): { table: string; ref: TableNode } | null {
  if (TableNode.is(node)) return { table: node.table.identifier.name, ref: node };
  if (AliasNode.is(node) && TableNode.is(node.node) && IdentifierNode.is(node.alias)) {
    return { table: node.node.table.identifier.name, ref: TableNode.create(node.alias.name) };
  }
  return null;
}

/** No current operator: nothing matches (ids are positive). */
function operatorValueOf(operatorId: number | null): number {
  return operatorId === null ? -1 : operatorId;
}

function operatorValue(operatorId: number | null): OperationNode {
  return ValueNode.create(operatorValueOf(operatorId));
}

function ownRows(ref: TableNode, operatorId: number | null): OperationNode {
  return BinaryOperationNode.create(ReferenceNode.create(ColumnNode.create(OPERATOR_COLUMN), ref), OperatorNode.create('='), operatorValue(operatorId));
}

/**
 * What a read of a tenant table may see. Sites shared with the operator (RAN sharing, docs/tenancy.md)
 * are visible to the partner too, and the share rows to both parties; everything else is the
 * operator's own rows.
 */
function visibleRows(table: string, ref: TableNode, operatorId: number | null): OperationNode {
  const own = ownRows(ref, operatorId);
  if (table === 'network_site_shares') {
    const partner = BinaryOperationNode.create(
      ReferenceNode.create(ColumnNode.create('partner_operator_id'), ref),
      OperatorNode.create('='),
      operatorValue(operatorId),
    );
    return ParensNode.create(OrNode.create(own, partner));
  }
  if (table === 'network_sites') {
    // exists (select 1 from network_site_shares x where x.site_id = ref.id and x.operator_id = ref.operator_id and x.partner_operator_id = me)
    const shares = TableNode.create('network_site_shares');
    const x = TableNode.create('cw_share');
    const eq = (left: OperationNode, right: OperationNode) => BinaryOperationNode.create(left, OperatorNode.create('='), right);
    const col = (name: string, table: TableNode) => ReferenceNode.create(ColumnNode.create(name), table);
    let subquery = SelectQueryNode.createFrom([AliasNode.create(shares, IdentifierNode.create('cw_share'))]);
    subquery = SelectQueryNode.cloneWithSelections(subquery, [SelectionNode.create(ValueNode.createImmediate(1) as never)]);
    subquery = { ...subquery, where: WhereNode.create(eq(col('site_id', x), col('id', ref))) };
    subquery = { ...subquery, where: WhereNode.cloneWithOperation(subquery.where!, 'And', eq(col(OPERATOR_COLUMN, x), col(OPERATOR_COLUMN, ref))) };
    subquery = { ...subquery, where: WhereNode.cloneWithOperation(subquery.where!, 'And', eq(col('partner_operator_id', x), operatorValue(operatorId))) };
    const exists = UnaryOperationNode.create(OperatorNode.create('exists'), ParensNode.create(subquery));
    return ParensNode.create(OrNode.create(own, exists));
  }
  return own;
}

function withWhere<T extends { where?: WhereNode }>(node: T, filter: OperationNode): T {
  return { ...node, where: node.where ? WhereNode.cloneWithOperation(node.where, 'And', filter) : WhereNode.create(filter) };
}

/**
 * Queries this plugin already rewrote. A query builder embedded in another (a subquery) is rewritten
 * when it is embedded, and the outer query is rewritten again at execution: the inner one is then
 * left alone instead of gaining its filter twice.
 */
const SCOPED = new WeakSet<OperationNode>();

function scoped<T extends OperationNode>(node: T): T {
  SCOPED.add(node);
  return node;
}

/**
 * Rewrites one query at a time. Instances are reused (see OperatorScopePlugin): Kysely's transformer
 * builds a table of a hundred closures per instance, and one per query was a fifth of a list request's CPU.
 */
class ScopeTransformer extends OperationNodeTransformer {
  private rawDepth = 0;
  private operatorId: number | null = null;

  /** `node` rewritten for `operatorId`. Not re-entrant: the plugin never hands a busy instance out. */
  rewrite(node: RootOperationNode, operatorId: number | null): RootOperationNode {
    this.operatorId = operatorId;
    this.rawDepth = 0;
    return this.transformNode(node);
  }

  private scopeJoins(joins: ReadonlyArray<JoinNode> | undefined, read: boolean): { joins: JoinNode[] | undefined; whereFilters: OperationNode[] } {
    const whereFilters: OperationNode[] = [];
    if (!joins) return { joins: undefined, whereFilters };
    const scoped = joins.map((join) => {
      const named = tableNameOf(join.table);
      if (!named || !TENANT_TABLES.has(named.table)) return join;
      const filter = read ? visibleRows(named.table, named.ref, this.operatorId) : ownRows(named.ref, this.operatorId);
      if (join.on) return JoinNode.cloneWithOn(join, filter);
      whereFilters.push(filter);
      return join;
    });
    return { joins: scoped, whereFilters };
  }

  /** What the tables a query reads (FROM, USING) may see. */
  private readFilters(tables: ReadonlyArray<OperationNode> | undefined): OperationNode[] {
    const filters: OperationNode[] = [];
    for (const table of tables ?? []) {
      const named = tableNameOf(table);
      if (named && TENANT_TABLES.has(named.table)) filters.push(visibleRows(named.table, named.ref, this.operatorId));
    }
    return filters;
  }

  /** The query with its joins scoped and every filter added to its WHERE; marked as rewritten. */
  private finish<T extends OperationNode & { where?: WhereNode; joins?: ReadonlyArray<JoinNode> }>(node: T, filters: OperationNode[]): T {
    const { joins, whereFilters } = this.scopeJoins(node.joins, true);
    let done: T = joins ? { ...node, joins } : node;
    for (const filter of [...filters, ...whereFilters]) done = withWhere(done, filter);
    return scoped(done);
  }

  protected override transformSelectQuery(original: SelectQueryNode): SelectQueryNode {
    if (SCOPED.has(original)) return original;
    const node = super.transformSelectQuery(original);
    return this.finish(node, this.readFilters(node.from?.froms));
  }

  protected override transformUpdateQuery(original: UpdateQueryNode): UpdateQueryNode {
    if (SCOPED.has(original)) return original;
    const node = super.transformUpdateQuery(original);
    const filters: OperationNode[] = [];
    const target = node.table ? tableNameOf(node.table) : null;
    if (target && TENANT_TABLES.has(target.table)) {
      this.requireWritable();
      filters.push(ownRows(target.ref, this.operatorId));
      if (node.updates?.some((u) => ColumnNode.is(u.column) && u.column.column.name === OPERATOR_COLUMN))
        throw new OperatorScopeError(`${target.table}.operator_id cannot be updated`);
    }
    return this.finish(node, [...filters, ...this.readFilters(node.from?.froms)]);
  }

  protected override transformDeleteQuery(original: DeleteQueryNode): DeleteQueryNode {
    if (SCOPED.has(original)) return original;
    const node = super.transformDeleteQuery(original);
    const filters: OperationNode[] = [];
    for (const from of node.from.froms) {
      const named = tableNameOf(from);
      if (named && TENANT_TABLES.has(named.table)) {
        this.requireWritable();
        filters.push(ownRows(named.ref, this.operatorId));
      }
    }
    return this.finish(node, [...filters, ...this.readFilters(node.using?.tables)]);
  }

  protected override transformInsertQuery(original: InsertQueryNode): InsertQueryNode {
    if (SCOPED.has(original)) return original;
    const node = super.transformInsertQuery(original);
    const target = node.into ? tableNameOf(node.into) : null;
    if (!target || !TENANT_TABLES.has(target.table)) return node;
    const operatorId = this.requireWritable();
    const columns = node.columns ?? [];
    const at = columns.findIndex((c) => c.column.name === OPERATOR_COLUMN);
    if (!node.values || !ValuesNode.is(node.values)) {
      // insert … select: the select is scoped; the inserted operator must be named and is the caller's to get right.
      if (at < 0) throw new OperatorScopeError(`insert into ${target.table} … select must name operator_id`);
      return scoped(node);
    }
    const rows = node.values.values.map((row) => {
      const values: OperationNode[] = row.kind === 'PrimitiveValueListNode' ? row.values.map((v) => ValueNode.create(v)) : [...row.values];
      if (at >= 0) {
        const given = values[at];
        if (!given || !ValueNode.is(given) || given.value !== operatorId) {
          throw new OperatorScopeError(`insert into ${target.table} names another operator than the current one`);
        }
        return ValueListNode.create(values);
      }
      return ValueListNode.create([...values, ValueNode.create(operatorId)]);
    });
    if (at >= 0) return scoped({ ...node, values: ValuesNode.create(rows) });
    return scoped({ ...node, columns: [...columns, ColumnNode.create(OPERATOR_COLUMN)], values: ValuesNode.create(rows) });
  }

  protected override transformRaw(node: RawNode): RawNode {
    if (this.rawDepth === 0) {
      const { mentions, marks } = tenantMentions(node);
      if (mentions.length > marks) {
        throw new OperatorScopeError(
          `raw SQL on ${[...new Set(mentions)].join(', ')} needs scopedTo(<alias>) for each tenant table it names (${marks} of ${mentions.length})`,
        );
      }
    }
    // Raw SQL with no query builder inside has nothing to rewrite: copying its tree node by node, as the
    // base transformer does, was most of a list request's time in this plugin.
    if (!embedsQueries(node)) return node;
    this.rawDepth += 1;
    try {
      return super.transformRaw(node);
    } finally {
      this.rawDepth -= 1;
    }
  }

  private requireWritable(): number {
    if (this.operatorId === null) throw new NoCurrentOperatorError();
    return this.operatorId;
  }
}

/** Nodes a raw fragment carries that hold no query: values, names, and raw SQL made of them. */
const INERT_KINDS: ReadonlySet<string> = new Set(['ValueNode', 'IdentifierNode', 'ReferenceNode', 'ColumnNode', 'TableNode', 'SchemableIdentifierNode']);

/** Whether a query builder (or anything this walk does not know) sits inside raw SQL; a tight walk, run per query. */
function embedsQueries(node: OperationNode): boolean {
  if (node.kind !== 'RawNode') return !INERT_KINDS.has(node.kind);
  for (const parameter of (node as RawNode).parameters) if (embedsQueries(parameter)) return true;
  return false;
}

/**
 * Does `node` touch a tenant table at all? Only then is a scope needed. A plain walk over the node tree:
 * nothing is built, unlike a transformer, which copies every node it passes.
 */
function touchesTenantData(node: OperationNode): boolean {
  if (TableNode.is(node)) return TENANT_TABLES.has(node.table.identifier.name);
  if (node.kind === 'RawNode') {
    const raw = node as RawNode;
    if (raw.sqlFragments.some((fragment) => fragmentMentions(fragment).length > 0)) return true;
  }
  for (const key in node) {
    const value = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item) && touchesTenantData(item)) return true;
    } else if (isNode(value) && touchesTenantData(value)) return true;
  }
  return false;
}

function isNode(value: unknown): value is OperationNode {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}

const DATA_QUERIES: ReadonlySet<string> = new Set(['SelectQueryNode', 'InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode', 'RawNode']);

/** The Kysely plugin every database handle of the API carries (api/src/db/database.ts). */
export class OperatorScopePlugin implements KyselyPlugin {
  /** Transformers not in use; one is taken per query, so a query rewritten while another is (a nested compile) gets its own. */
  private readonly idle: ScopeTransformer[] = [];

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    const state = stateNow();
    if (state?.unscoped) return node;
    // Schema changes (create table, index…) are migrations' work, not data: left alone.
    if (!DATA_QUERIES.has(node.kind)) return node;
    if (!touchesTenantData(node)) return node;
    if (!state || state.pending) throw new OperatorScopeError(`tenant data queried outside an operator scope (${node.kind})`);
    const transformer = this.idle.pop() ?? new ScopeTransformer();
    // A refused query leaves Kysely's node stack mid-walk: that instance is dropped, not reused.
    const rewritten = transformer.rewrite(node, state.operatorId);
    this.idle.push(transformer);
    return rewritten;
  }

  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(result);
  }
}
