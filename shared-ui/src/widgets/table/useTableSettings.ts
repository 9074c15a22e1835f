import type { ColumnSetting, SavedFilter, TableSettings } from 'contracts';
import { api, errorMessage, isTokenLive, useSession } from 'shared-auth';
import { useCallback, useEffect, useRef, useState } from 'react';

/** Changes of columns that come quickly one after another (a width typed digit by digit, arrow-key resizing) are sent once they stop. */
export const COLUMN_SAVE_DELAY_MS = 400;

export interface TableSettingsView {
  columns: ColumnSetting[];
  savedFilters: SavedFilter[];
  /** True when they are kept on the server for the signed-in user; otherwise they last as long as the table. */
  persisted: boolean;
  saveColumns: (columns: ColumnSetting[]) => void;
  /** Answers null when saved, else what went wrong (to show next to the form). */
  saveFilter: (name: string, filters: Record<string, string>) => Promise<string | null>;
  deleteFilter: (name: string) => Promise<string | null>;
}

/** Shared empty settings, so a table without any keeps the same ones from render to render (frozen: never written to). */
const NO_COLUMNS = Object.freeze([]) as unknown as ColumnSetting[];
const NO_FILTERS = Object.freeze([]) as unknown as SavedFilter[];

// Settings are a few dozen small records: comparing their JSON is cheaper than a redraw they would cause.
const sameRecords = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && JSON.stringify(a) === JSON.stringify(b);

interface Held {
  /** Whose settings of which table these are: another user or table starts from none. */
  owner: string;
  columns: ColumnSetting[];
  savedFilters: SavedFilter[];
}

/**
 * The signed-in user's settings of one table (column order, visibility, widths; saved filters), kept on
 * the server under the table's key so they follow the user to another browser. Without a key or a
 * session (a transient table, a component test) they are kept by the table alone.
 */
export function useTableSettings(tableKey: string | undefined): TableSettingsView {
  const userId = useSession((s) => (isTokenLive(s.token) ? s.user.id : null));
  const persisted = Boolean(tableKey) && userId !== null;
  const owner = persisted ? `${userId}|${tableKey}` : '';
  const [stored, setHeld] = useState<Held>({ owner, columns: NO_COLUMNS, savedFilters: NO_FILTERS });
  const held = stored.owner === owner ? stored : { owner, columns: NO_COLUMNS, savedFilters: NO_FILTERS };
  // Once the user changed the columns, a late answer of the first read must not undo it.
  const changed = useRef(false);
  const pending = useRef<{ timer: ReturnType<typeof setTimeout>; columns: ColumnSetting[] } | null>(null);

  const load = useCallback(() => {
    if (!persisted || !tableKey) return () => undefined;
    let live = true;
    // The table works without the user's settings: a failed read leaves it as the page made it, without a message in the way.
    api.get<TableSettings>('TableSettings/GetSettings', { params: { tableKey }, skipLoading: true, skipErrorHandling: true }).then(
      ({ data }) => {
        if (!live) return;
        setHeld((prev) => {
          const mine = prev.owner === owner;
          // The columns held when the server's are the same (none saved, most tables): a new array would
          // redraw the whole table for nothing.
          const columns = mine && (changed.current || sameRecords(prev.columns, data.columns)) ? prev.columns : data.columns;
          const savedFilters = mine && sameRecords(prev.savedFilters, data.savedFilters) ? prev.savedFilters : data.savedFilters;
          return mine && columns === prev.columns && savedFilters === prev.savedFilters ? prev : { owner, columns, savedFilters };
        });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [owner, persisted, tableKey]);

  useEffect(() => {
    changed.current = false;
    return load();
  }, [load]);

  const send = useCallback(
    (columns: ColumnSetting[]) => {
      if (!tableKey) return;
      // A refusal (over a limit) is told by the API client's toast; the server's copy is read back so the table shows what is kept.
      api.put<TableSettings>('TableSettings/SaveColumns', { tableKey, columns }, { skipLoading: true }).catch(() => load());
    },
    [load, tableKey],
  );

  // A table left before its last change was sent still sends it.
  useEffect(
    () => () => {
      if (pending.current) {
        clearTimeout(pending.current.timer);
        send(pending.current.columns);
        pending.current = null;
      }
    },
    [send],
  );

  const saveColumns = useCallback(
    (columns: ColumnSetting[]) => {
      changed.current = true;
      setHeld((prev) => ({ ...(prev.owner === owner ? prev : { savedFilters: [] }), owner, columns }));
      if (!persisted) return;
      if (pending.current) clearTimeout(pending.current.timer);
      pending.current = {
        columns,
        timer: setTimeout(() => {
          pending.current = null;
          send(columns);
        }, COLUMN_SAVE_DELAY_MS),
      };
    },
    [owner, persisted, send],
  );

  const saveFilter = useCallback(
    async (name: string, filters: Record<string, string>): Promise<string | null> => {
      if (!persisted || !tableKey) {
        const saved: SavedFilter = { name: name.trim(), filters, updatedAt: new Date().toISOString() };
        setHeld((prev) => ({
          ...prev,
          savedFilters: [...prev.savedFilters.filter((f) => f.name !== saved.name), saved].sort((a, b) => a.name.localeCompare(b.name)),
        }));
        return null;
      }
      try {
        const { data } = await api.put<TableSettings>('TableSettings/SaveFilter', { tableKey, name, filters }, { skipLoading: true, skipErrorHandling: true });
        setHeld((prev) => ({ owner, columns: prev.owner === owner ? prev.columns : [], savedFilters: data.savedFilters }));
        return null;
      } catch (error) {
        return errorMessage(error);
      }
    },
    [owner, persisted, tableKey],
  );

  const deleteFilter = useCallback(
    async (name: string): Promise<string | null> => {
      if (!persisted || !tableKey) {
        setHeld((prev) => ({ ...prev, savedFilters: prev.savedFilters.filter((f) => f.name !== name) }));
        return null;
      }
      try {
        const { data } = await api.delete<TableSettings>('TableSettings/DeleteFilter', {
          data: { tableKey, name },
          skipLoading: true,
          skipErrorHandling: true,
        });
        setHeld((prev) => ({ owner, columns: prev.owner === owner ? prev.columns : [], savedFilters: data.savedFilters }));
        return null;
      } catch (error) {
        // Already gone (deleted in another browser): the list is read again rather than sending the user to the 404 page.
        load();
        return errorMessage(error);
      }
    },
    [load, owner, persisted, tableKey],
  );

  return { columns: held.columns, savedFilters: held.savedFilters, persisted, saveColumns, saveFilter, deleteFilter };
}
