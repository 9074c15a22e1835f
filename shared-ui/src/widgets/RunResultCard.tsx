import { DownloadOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Tag } from 'antd';
import { useState } from 'react';
import type { RunResponse } from 'api/contracts';
import { downloadExport } from '../files/transfer';
import { formatCount } from '../format';
import { DataTable, type DataColumn } from './DataTable';
import { Note } from './Note';

const TONE_COLOURS = { ok: 'success', warning: 'warning', error: 'error', info: 'default' } as const;

type PreviewRow = Record<string, string | number | null> & { __row: string };

/** What the page gives the card: the run's answer, and the card's title. */
export interface RunResultCardProps {
  result: RunResponse;
  title?: string;
}

/** A run's answer: its message, the verdict counts as coloured tags, the first rows, and its workbook. */
export function RunResultCardContent({ result, title = 'Result' }: RunResultCardProps) {
  const { summary, preview } = result;
  const rows: PreviewRow[] = preview.rows.map((row, index) => ({ ...row, __row: String(index) }));
  const columns: Array<DataColumn<PreviewRow>> = preview.columns.map((c) => ({ key: c.key, title: c.label }));
  return (
    <Card title={title} size="small" data-testid="run-result" extra={result.file ? <DownloadAgain file={result.file} /> : null}>
      <Flex vertical gap={12}>
        {result.message && <span style={{ wordBreak: 'break-word' }}>{result.message}</span>}
        {summary.length > 0 && (
          <Flex gap={8} wrap aria-label="Verdicts">
            {summary.map((item) => (
              <Tag key={item.label} color={TONE_COLOURS[item.tone]} style={{ fontSize: 14, paddingBlock: 2 }}>
                {item.label}: {formatCount(item.count)}
              </Tag>
            ))}
          </Flex>
        )}
        {preview.total > 0 && (
          <>
            <Note>
              {preview.title}:{' '}
              {preview.total <= preview.rows.length
                ? `${preview.total} rows`
                : `first ${preview.rows.length} of ${formatCount(preview.total)} rows (all of them in the workbook)`}
            </Note>
            <DataTable columns={columns} rows={rows} rowKey="__row" />
          </>
        )}
      </Flex>
    </Card>
  );
}

function DownloadAgain({ file }: { file: string }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadExport(file);
    } catch {
      // The API client has said why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" icon={<DownloadOutlined />} loading={busy} onClick={() => void download()}>
      Download workbook
    </Button>
  );
}
