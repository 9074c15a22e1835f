import type { DataColumn } from 'shared-ui';

/** Identification fields every monitoring summary starts with (specification §3). */
export interface SiteIdentity {
  siteId: string;
  siteName: string;
  nodeName: string;
  tech: string;
  commissioningDate: string;
  currentStatus: string;
}

export function identityColumns<Row extends SiteIdentity>(): Array<DataColumn<Row>> {
  return [
    { key: 'siteId', title: 'Site Id' },
    { key: 'siteName', title: 'Site Name' },
    { key: 'nodeName', title: 'Node Name' },
    { key: 'tech', title: 'Tech' },
    { key: 'commissioningDate', title: 'Commissioning Date', kind: 'date' },
    { key: 'currentStatus', title: 'Current Status' },
  ];
}
