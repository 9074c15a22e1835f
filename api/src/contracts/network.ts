import { Type, type Static } from '@sinclair/typebox';

/** Network inventory ("the dump", DESIGN §7.1): import, summary, last-import dates and site selects. */

export const DumpFormat = Type.Union([Type.Literal('auto'), Type.Literal('bulkcm'), Type.Literal('cmedit')], {
  description: 'auto reads the first non-blank character: < means 3GPP Bulk CM XML, anything else an ENM cmedit export.',
});
export type DumpFormat = Static<typeof DumpFormat>;

export const CoordinateEncoding = Type.Union([Type.Literal('microdegrees'), Type.Literal('3gpp'), Type.Literal('degrees')], {
  description: 'How latitude/longitude are written in the dump: millionths of a degree, the 3GPP 2^23/90 and 2^24/360 encoding, or plain degrees.',
});
export type CoordinateEncoding = Static<typeof CoordinateEncoding>;

/** Reserved for imports of a file sent earlier through File/Upload. */
export const ImportDumpJsonRequest = Type.Object(
  { uploadId: Type.String({ minLength: 1, maxLength: 200 }), format: Type.Optional(DumpFormat), coords: Type.Optional(CoordinateEncoding) },
  { additionalProperties: false },
);
export type ImportDumpJsonRequest = Static<typeof ImportDumpJsonRequest>;

/** The multipart form: one file part plus these optional fields (documentation only: multipart is read by hand). */
export const ImportDumpMultipartRequest = Type.Object(
  {
    file: Type.String({ format: 'binary', description: 'The dump: Bulk CM XML or a cmedit text export.' }),
    format: Type.Optional(DumpFormat),
    coords: Type.Optional(CoordinateEncoding),
  },
  { additionalProperties: false },
);

const Count = Type.Integer({ minimum: 0 });

export const CellCounts = Type.Object({ '2G': Count, '3G': Count, '4G': Count, '5G': Count, 'NB-IoT': Count }, { additionalProperties: false });
export const ExternalCellCounts = Type.Object({ '2G': Count, '3G': Count, '4G': Count, '5G': Count }, { additionalProperties: false });
export const RelationCounts = Type.Object(
  {
    'GERAN-GERAN': Count,
    'GERAN-UTRAN': Count,
    'GERAN-LTE': Count,
    'GERAN-NR': Count,
    'UTRAN-GERAN': Count,
    'UTRAN-UTRAN': Count,
    'UTRAN-LTE': Count,
    'UTRAN-NR': Count,
    'LTE-GERAN': Count,
    'LTE-UTRAN': Count,
    'LTE-LTE': Count,
    'LTE-NR': Count,
    'NR-GERAN': Count,
    'NR-UTRAN': Count,
    'NR-LTE': Count,
    'NR-NR': Count,
  },
  { additionalProperties: false, description: 'Relations per <source RAT>-<target RAT>; NB-IoT counts as LTE.' },
);

export const NetworkCounts = Type.Object(
  { sites: Count, nodes: Count, cells: CellCounts, externalCells: ExternalCellCounts, relations: RelationCounts },
  { additionalProperties: false },
);
export type NetworkCounts = Static<typeof NetworkCounts>;

export const ImportDumpResponse = Type.Object(
  { message: Type.String(), counts: NetworkCounts, importedAt: Type.String({ description: 'ISO-8601 UTC' }) },
  { additionalProperties: false },
);
export type ImportDumpResponse = Static<typeof ImportDumpResponse>;

/** What the database holds now, counted from the stored rows. */
export const NetworkSummary = Type.Object(
  {
    sites: Count,
    nodes: Count,
    cells: CellCounts,
    externalCells: ExternalCellCounts,
    relations: RelationCounts,
    importedAt: Type.Union([Type.String({ description: 'ISO-8601 UTC' }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type NetworkSummary = Static<typeof NetworkSummary>;

/** Date of the last import (ISO-8601 UTC), or '' when nothing was imported yet (the page shows its fallback banner). */
export const LastImportDate = Type.String();
export type LastImportDate = Static<typeof LastImportDate>;

export const SiteListQuery = Type.Object(
  { query: Type.Optional(Type.String({ maxLength: 100, description: 'Typed text: matches site id or name, case-insensitively, anywhere.' })) },
  { additionalProperties: false },
);
export type SiteListQuery = Static<typeof SiteListQuery>;

/** A site option of the selects (specification §3): value = site id, text = "id – name". */
export const SiteOption = Type.Object({ value: Type.String(), text: Type.String() }, { additionalProperties: false });
export type SiteOption = Static<typeof SiteOption>;

/** At most 20 options (specification §5), sorted by site id. */
export const SiteOptions = Type.Array(SiteOption, { maxItems: 20 });
export type SiteOptions = Static<typeof SiteOptions>;
