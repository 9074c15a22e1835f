import { Alert, Badge, Card, Flex, Spin, Tabs, Tag } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import type { RunFindingsPage, RunSheetInfo, RunView } from 'contracts';
import { api, errorMessage } from 'shared-auth';
import { listParams } from '../api/listFetcher';
import { formatCount } from '../format';
import { DataTable, type DataColumn, type TablePage, type TableQuery } from './DataTable';
import { RunWorkbookButton, type RunRoutes } from './RunWorkbookButton';
import { ScriptsDownload } from './ScriptsDownload';
import { verdictColour, VerdictTag } from './VerdictTag';

/** A summary count's colour by its tone; a zero is neutral whatever its tone ('NOK: 0' is no alarm, 'OK: 0' no praise). */
const TONE_COLOURS = { ok: 'success', warning: 'warning', error: 'error', info: 'default' } as const;
const BADGE_STATUS = { green: 'success', red: 'error', orange: 'warning' } as const;

export interface RunResultCardProps {
  runId: number;
  routes: RunRoutes;
  title?: string;
}

type FindingRow = Record<string, string | number | null> & { __row: string };

const summaryColour = (item: RunView['summary'][number]) => (item.count === 0 ? TONE_COLOURS.info : TONE_COLOURS[item.tone]);

/**
 * A run's result (issue 46): its message, the verdict counts, every finding of the chosen result
 * sheet in the shared table (paged, filtered and sorted on the server, worst first), a switch between
 * sheets when it has several, and its workbook — downloaded only when the user asks.
 */
export function RunResultCardContent({ runId, routes, title = 'Result' }: RunResultCardProps) {
  const [loaded, setLoaded] = useState<{ runId: number; run: RunView } | { runId: number; failed: string } | null>(null);
  // The sheet chosen, for the run it was chosen on: another run opens on its own first sheet.
  const [choice, setChoice] = useState<{ runId: number; sheet: string } | null>(null);

  useEffect(() => {
    let live = true;
    // The run's own description (summary, sheets) comes with any page of its findings: one row is enough here.
    api
      .get<RunFindingsPage>(routes.findingsPath, { params: { [routes.idParam]: runId, size: 1 }, skipLoading: true, skipErrorHandling: true })
      .then(({ data }) => live && setLoaded({ runId, run: data.run }))
      .catch((error: unknown) => live && setLoaded({ runId, failed: errorMessage(error) }));
    return () => {
      live = false;
    };
  }, [runId, routes.findingsPath, routes.idParam]);

  if (!loaded || loaded.runId !== runId) {
    return (
      <Card title={title} size="small" data-testid="run-result">
        <Spin />
      </Card>
    );
  }
  if ('failed' in loaded) {
    return (
      <Card title={title} size="small" data-testid="run-result">
        <Alert type="error" showIcon title={`Run ${runId}: ${loaded.failed}`} />
      </Card>
    );
  }
  const { run } = loaded;
  const chosen = choice?.runId === run.runId ? choice.sheet : null;
  const shown = run.sheets.find((s) => s.name === chosen) ?? run.sheets[0];
  return (
    <Card title={`${title} · run ${run.runId}`} size="small" data-testid="run-result">
      <Flex vertical gap={12}>
        {/* In the body, not the card's head: two buttons there left a phone's title no room at all. */}
        {(routes.scriptsPath || run.hasFile) && (
          <Flex gap={8} wrap>
            {run.hasFile ? (
              <RunWorkbookButton runId={run.runId} routes={routes}>
                Download workbook
              </RunWorkbookButton>
            ) : null}
            {routes.scriptsPath ? <ScriptsDownload path={routes.scriptsPath} idParam={routes.idParam} runId={run.runId} size="small" /> : null}
          </Flex>
        )}
        {run.message && <span style={{ wordBreak: 'break-word' }}>{run.message}</span>}
        {run.summary.length > 0 && (
          <Flex gap={8} wrap aria-label="Verdicts">
            {run.summary.map((item) => (
              <Tag key={item.label} color={summaryColour(item)} style={{ fontSize: 14, paddingBlock: 2, marginInlineEnd: 0 }}>
                {item.label}: {formatCount(item.count)}
              </Tag>
            ))}
          </Flex>
        )}
        {run.sheets.length > 1 && (
          <Tabs
            size="small"
            activeKey={shown?.name}
            onChange={(sheet) => setChoice({ runId: run.runId, sheet })}
            items={run.sheets.map((s) => ({ key: s.name, label: <SheetLabel sheet={s} /> }))}
            style={{ marginBottom: -12 }}
          />
        )}
        {shown && <FindingsTable key={`${run.runId}:${shown.name}`} runId={run.runId} routes={routes} sheet={shown} />}
      </Flex>
    </Card>
  );
}

function SheetLabel({ sheet }: { sheet: RunSheetInfo }) {
  const colour = verdictColour(sheet.worst);
  const text = `${sheet.name} (${formatCount(sheet.total)})`;
  return colour ? <Badge status={BADGE_STATUS[colour]} text={text} /> : <span>{text}</span>;
}

function FindingsTable({ runId, routes, sheet }: { runId: number; routes: RunRoutes; sheet: RunSheetInfo }) {
  const fetchPage = useMemo(
    () =>
      async (query: TableQuery): Promise<TablePage<FindingRow>> => {
        const { data } = await api.get<RunFindingsPage>(routes.findingsPath, {
          params: { [routes.idParam]: runId, sheet: sheet.name, ...listParams(query) },
          skipLoading: true,
        });
        return { total: data.total, rows: data.rows.map((r) => ({ ...r.values, __row: String(r.rowNo) })) };
      },
    [runId, routes.findingsPath, routes.idParam, sheet.name],
  );
  // The verdict leads (the workbook keeps its own order): the order the rows come in is read at a glance, on a phone too.
  const ordered = [...sheet.columns.filter((c) => c.key === sheet.verdictKey), ...sheet.columns.filter((c) => c.key !== sheet.verdictKey)];
  const columns: Array<DataColumn<FindingRow>> = ordered.map((c) => ({
    key: c.key,
    title: c.label,
    kind: c.kind,
    ...(c.key === sheet.verdictKey ? { render: (row: FindingRow) => <VerdictTag value={row[c.key]} /> } : {}),
  }));
  return (
    <DataTable
      caption={`${sheet.name}: ${formatCount(sheet.total)} ${sheet.total === 1 ? 'row' : 'rows'}`}
      columns={columns}
      fetchPage={fetchPage}
      rowKey="__row"
      emptyText="Nothing found."
    />
  );
}
