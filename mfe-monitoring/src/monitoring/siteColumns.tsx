import { Flex, Tag } from 'antd';
import { Link } from 'react-router-dom';
import type { FaultSummaryRow } from 'contracts';
import { StatusTag, type DataColumn } from 'shared-ui';

/** What a list says before any log was parsed: where to go next. */
export const NO_LOGS_YET = 'No logs parsed yet: upload MoBatch logs on Upload Logs.';

/** Identification fields every monitoring summary starts with (specification §3), and the log facts after them. */
export type SiteIdentity = Pick<FaultSummaryRow, 'siteId' | 'siteName' | 'nodeName' | 'tech' | 'commissioningDate' | 'currentStatus'>;
export type LogFacts = Pick<FaultSummaryRow, 'logsDate' | 'remarks'>;

/** The site report of a site, from any page that shows a site id. */
export function siteReportPath(siteId: string): string {
  return `/monitoring/siteReport?${new URLSearchParams({ siteId }).toString()}`;
}

export function SiteReportLink({ siteId }: { siteId: string | null }) {
  if (!siteId) return null;
  return (
    <Link to={siteReportPath(siteId)} title={`Site report of ${siteId}`}>
      {siteId}
    </Link>
  );
}

export function identityColumns<Row extends SiteIdentity>(): Array<DataColumn<Row>> {
  return [
    { key: 'siteId', title: 'Site Id', render: (row) => <SiteReportLink siteId={row.siteId} /> },
    { key: 'siteName', title: 'Site Name' },
    { key: 'nodeName', title: 'Node Name' },
    { key: 'tech', title: 'Tech' },
    { key: 'commissioningDate', title: 'Commissioning Date', kind: 'date' },
    { key: 'currentStatus', title: 'Current Status' },
  ];
}

/** 'Not in inventory', 'Unreachable' (joined by '; ' when both) as tags: what the user should know about the node's log. */
export function Remarks({ text }: { text: string }) {
  const parts = text
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return null;
  return (
    <Flex gap={4} wrap>
      {parts.map((part) => (
        <Tag key={part} color={part === 'Unreachable' ? 'volcano' : 'gold'} style={{ marginInlineEnd: 0 }}>
          {part}
        </Tag>
      ))}
    </Flex>
  );
}

export function logFactColumns<Row extends LogFacts>(): Array<DataColumn<Row>> {
  return [
    { key: 'logsDate', title: 'Logs Date', kind: 'date' },
    { key: 'remarks', title: 'Remarks', render: (row) => <Remarks text={row.remarks} /> },
  ];
}

/** A verdict column (OK / NOK / N/A) shown as a tag. */
export function statusColumn<Row>(key: keyof Row & string, title: string): DataColumn<Row> {
  return { key, title, render: (row) => <StatusTag value={row[key] as string | null} /> };
}
