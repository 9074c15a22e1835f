import type { Generated } from 'kysely';

/** Row types of every table, as the queries see them. Migrations under ./migrations create them. */
export interface AppMetaTable {
  key: string;
  value: string;
}

export interface Database {
  app_meta: AppMetaTable;
}

export type NewRow<T> = { [K in keyof T]: T[K] extends Generated<infer U> ? U | undefined : T[K] };
