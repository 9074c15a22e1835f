/** Row type of the jobs table (migration 0008). */
export interface JobsTable {
  id: string;
  kind: string;
  owner_id: number | null;
  /** The operator the job's work belongs to (docs/tenancy.md): it runs in that operator's scope. */
  operator_id: number | null;
  /** JSON text of the kind's parameters. */
  params: string;
  state: string;
  progress: number;
  progress_text: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** JSON text of what the run answered. */
  result: string | null;
  error: string | null;
  attempts: number;
  instance_id: string | null;
  heartbeat_at: string | null;
}

export interface JobTables {
  jobs: JobsTable;
}
