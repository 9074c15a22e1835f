// Frozen: a migration never imports application code, so later refactors cannot change history.
import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/**
 * Accounts, operators and projects. Conventions the queries rely on, identical on both dialects:
 * points in time are ISO-8601 UTC text (fixed width, so text order is time order);
 * `users.tokens_valid_after` is JWT NumericDate seconds because it is compared with a token's `iat`
 * (bigint on PostgreSQL so it outlives 2038; pg hands bigint over as text); flags are integers 0/1;
 * e-mail addresses are stored lower-cased, which makes the unique index case-insensitive.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement());
  const idType = postgres ? 'serial' : 'integer';

  await db.schema
    .createTable('roles')
    .addColumn('id', idType, id)
    .addColumn('name', 'varchar(50)', (c) => c.notNull().unique())
    .execute();

  await db.schema
    .createTable('operators')
    .addColumn('id', idType, id)
    .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('avatar', 'text')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('projects')
    .addColumn('id', idType, id)
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addUniqueConstraint('projects_operator_name_unique', ['operator_id', 'name'])
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', idType, id)
    .addColumn('firstname', 'varchar(100)', (c) => c.notNull())
    .addColumn('lastname', 'varchar(100)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id'))
    .addColumn('operator_id', 'integer', (c) => c.references('operators.id').onDelete('set null'))
    .addColumn('email_confirmed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deactivated_at', 'varchar(30)')
    .addColumn('tokens_valid_after', postgres ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('avatar', 'text')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_role_id').on('users').column('role_id').execute();

  await db.schema
    .createTable('user_operators')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_operators_pk', ['user_id', 'operator_id'])
    .execute();
  await db.schema.createIndex('user_operators_operator_id').on('user_operators').column('operator_id').execute();

  await db.schema
    .createTable('user_projects')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_projects_pk', ['user_id', 'project_id'])
    .execute();
  await db.schema.createIndex('user_projects_project_id').on('user_projects').column('project_id').execute();

  await db.schema
    .createTable('one_time_tokens')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(30)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('one_time_tokens_user_purpose').on('one_time_tokens').columns(['user_id', 'purpose']).execute();

  await db.schema
    .createTable('login_attempts')
    .addColumn('email', 'varchar(254)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'varchar(30)')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['login_attempts', 'one_time_tokens', 'user_projects', 'user_operators', 'users', 'projects', 'operators', 'roles']) {
    await db.schema.dropTable(table).execute();
  }
}
