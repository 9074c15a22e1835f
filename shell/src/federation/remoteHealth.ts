// Imported by the federation runtime plugin, which runs before shared modules are negotiated:
// this file must import nothing shared (no React, no zustand).
export type RemoteStatus = 'loading' | 'ready' | 'unavailable';

export interface RemoteHealthSnapshot {
  status: Record<string, RemoteStatus>;
  errors: Record<string, string>;
}

let snapshot: RemoteHealthSnapshot = { status: {}, errors: {} };
const listeners = new Set<() => void>();

export function getRemoteHealth(): RemoteHealthSnapshot {
  return snapshot;
}

export function subscribeRemoteHealth(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setRemoteStatus(name: string, status: RemoteStatus, error?: unknown): void {
  snapshot = {
    status: { ...snapshot.status, [name]: status },
    errors: error === undefined ? snapshot.errors : { ...snapshot.errors, [name]: error instanceof Error ? error.message : String(error) },
  };
  listeners.forEach((l) => l());
}

/** Called by the runtime plugin with a module id such as `mfe_tracking/manifest`. */
export function reportRemoteFailure(moduleId: string, error: unknown): void {
  const name = moduleId.split('/')[0] ?? moduleId;
  console.warn(`[cellwise] remote ${name} failed to load`, error);
  setRemoteStatus(name, 'unavailable', error);
}
