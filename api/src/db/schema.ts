import type { ColumnType, Generated } from 'kysely';
import type { DashboardTables } from '../dashboards/tables';
import type { FileTables } from '../files/tables';
import type { NetworkTables } from '../network/tables';
import type { JobTables } from '../jobs/tables';
import type { MonitoringTables } from '../monitoring/tables';
import type { PlanningTables } from '../planning/tables';
import type { RunTables } from '../runs/tables';
import type { TableSettingsTables } from '../table-settings/tables';
import type { TrackingTables } from '../tracking/tables';

/** Row types of every table, as the queries see them. Migrations under ./migrations create them. */
export interface AppMetaTable {
  key: string;
  value: string;
}

/**
 * Accounts (migration 0002). Points in time are ISO-8601 UTC text (`new Date().toISOString()`);
 * flags are 0/1; e-mail addresses are stored lower-cased.
 */
export interface RolesTable {
  id: Generated<number>;
  name: string;
}

export interface OperatorsTable {
  id: Generated<number>;
  name: string;
  /** Version (upload time) of the picture in operator_pictures, or null for initials. */
  avatar: string | null;
  created_at: string;
}

export interface ProjectsTable {
  id: Generated<number>;
  name: string;
  operator_id: number;
}

export interface UsersTable {
  id: Generated<number>;
  firstname: string;
  lastname: string;
  email: string;
  /** Null until the user completes registration. */
  password_hash: string | null;
  role_id: number;
  /** The user's current operator. */
  operator_id: number | null;
  email_confirmed: ColumnType<number, number | undefined, number>;
  deactivated_at: string | null;
  /**
   * Epoch seconds: tokens with an earlier `iat` are refused. PostgreSQL stores it as bigint, which pg
   * answers as text, so read it through `Number()`.
   */
  tokens_valid_after: ColumnType<number | string, number | undefined, number>;
  avatar: string | null;
  created_at: string;
}

export interface UserOperatorsTable {
  user_id: number;
  operator_id: number;
}

export interface UserProjectsTable {
  user_id: number;
  project_id: number;
}

export type OneTimeTokenPurpose = 'confirm' | 'recover';

export interface OneTimeTokensTable {
  id: Generated<number>;
  user_id: number;
  purpose: OneTimeTokenPurpose;
  /** SHA-256 hex of the token; the token itself is only ever in the mailed link. */
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** Login throttling state when no Redis is configured. */
export interface LoginAttemptsTable {
  email: string;
  failures: ColumnType<number, number | undefined, number>;
  locked_until: string | null;
}

/** Notifications (migration 0004), one row per recipient; `readed` is 0/1. */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  key: string;
  title: string;
  added_date: string;
  icon: 'info' | 'warning' | 'success' | 'error';
  variant: string;
  readed: ColumnType<number, number | undefined, number>;
  /** The operator of the work that raised it (migration 0016); null for work outside any operator. Not a tenant filter. */
  operator_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Operator pictures (migration 0005): PNG bytes; `operators.avatar` holds `updated_at` as the picture's version. */
export interface OperatorPicturesTable {
  operator_id: number;
  png: Buffer;
  updated_at: string;
}

/** Who changed what in the management area, when and from where (migration 0005). */
export interface AuditTrailTable {
  id: Generated<number>;
  at: string;
  actor_id: number | null;
  actor_email: string;
  action: string;
  entity: 'user' | 'operator' | 'project';
  entity_id: number | null;
  summary: string;
  address: string;
}

/** The network inventory, file, tracking, job, monitoring, run, dashboard and table-settings tables are declared next to their code. */
export interface Database
  extends NetworkTables, FileTables, TrackingTables, JobTables, MonitoringTables, RunTables, PlanningTables, DashboardTables, TableSettingsTables {
  app_meta: AppMetaTable;
  roles: RolesTable;
  operators: OperatorsTable;
  projects: ProjectsTable;
  users: UsersTable;
  user_operators: UserOperatorsTable;
  user_projects: UserProjectsTable;
  one_time_tokens: OneTimeTokensTable;
  login_attempts: LoginAttemptsTable;
  notifications: NotificationsTable;
  operator_pictures: OperatorPicturesTable;
  audit_trail: AuditTrailTable;
}

/** A row to insert; a tenant table's operator_id may be left to the operator scope. */
export type NewRow<T> = {
  [K in keyof T as K extends 'operator_id' ? never : K]: T[K] extends Generated<infer U> ? U | undefined : T[K];
} & ('operator_id' extends keyof T ? { operator_id?: number } : unknown);
