import { Type, type Static } from '@sinclair/typebox';

/** Network inventory ("the dump", docs/engines/network.md): import, summary, last-import dates and site selects. */

export const DumpFormat = Type.Union([Type.Literal('auto'), Type.Literal('bulkcm'), Type.Literal('cmedit')], {
  description: 'auto reads the first non-blank character: < means 3GPP Bulk CM XML, anything else an ENM cmedit export.',
});
export type DumpFormat = Static<typeof DumpFormat>;

export const CoordinateEncoding = Type.Union([Type.Literal('microdegrees'), Type.Literal('3gpp'), Type.Literal('degrees')], {
  description: 'How latitude/longitude are written in the dump: millionths of a degree, the 3GPP 2^23/90 and 2^24/360 encoding, or plain degrees.',
});
export type CoordinateEncoding = Static<typeof CoordinateEncoding>;

export const SiteRule = Type.String({
  maxLength: 200,
  description:
    'A regular expression with a named group `site`, searched in each node name (and in the cell names of RNCs and BSCs): ' +
    'what the group matches is the site id, e.g. `^ERBS_(?<site>\\d+)`. Names it does not match are their own site id. ' +
    'Refused (400): a pattern that does not compile, has no `site` group, or repeats a repetition such as `(a+)+`. ' +
    'Empty or absent: the default rule, which strips type prefixes (ERBS_41428_X → 41428, NR_LX0001_A → LX0001).',
});

/** Reserved for imports of a file sent earlier through File/Upload. */
export const ImportDumpJsonRequest = Type.Object(
  {
    uploadId: Type.String({ minLength: 1, maxLength: 200 }),
    format: Type.Optional(DumpFormat),
    coords: Type.Optional(CoordinateEncoding),
    siteRule: Type.Optional(SiteRule),
  },
  { additionalProperties: false },
);
export type ImportDumpJsonRequest = Static<typeof ImportDumpJsonRequest>;

/** The multipart form: one file part plus these optional fields (documentation only: multipart is read by hand). */
export const ImportDumpMultipartRequest = Type.Object(
  {
    file: Type.String({ format: 'binary', description: 'The dump: Bulk CM XML or a cmedit text export.' }),
    format: Type.Optional(DumpFormat),
    coords: Type.Optional(CoordinateEncoding),
    siteRule: Type.Optional(SiteRule),
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

/** How the nodes fell on sites: a wrong site rule shows as one site with most of the nodes, or many unmatched names. */
export const ImportSites = Type.Object(
  {
    rule: Type.String({ description: 'The site rule used, as written.' }),
    total: Count,
    nodesOnSites: Type.Integer({ minimum: 0, description: 'Nodes placed on a site (RNCs and BSCs have none).' }),
    largest: Type.Array(Type.Object({ siteId: Type.String(), nodes: Count }, { additionalProperties: false }), {
      maxItems: 5,
      description: 'The sites with the most nodes, most first.',
    }),
    unmatched: Type.Object(
      { count: Count, examples: Type.Array(Type.String(), { maxItems: 5 }) },
      { additionalProperties: false, description: 'Names the rule did not match; each became its own site id.' },
    ),
  },
  { additionalProperties: false },
);
export type ImportSites = Static<typeof ImportSites>;

export const ImportDumpResponse = Type.Object(
  {
    message: Type.String({ description: 'One line for the user, the warnings included.' }),
    counts: NetworkCounts,
    importedAt: Type.String({ description: 'ISO-8601 UTC' }),
    sites: ImportSites,
    warnings: Type.Array(Type.String(), { description: 'What looks wrong in the result, e.g. one site holding most nodes (check the site rule).' }),
  },
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

/** RAN sharing (docs/tenancy.md): MORAN, each operator its own layer on the shared site; MOCN, one layer broadcasting both PLMNs. */
export const SHARE_MODES = ['MORAN', 'MOCN'] as const;
export const ShareMode = Type.Union([Type.Literal(SHARE_MODES[0]), Type.Literal(SHARE_MODES[1])]);
export type ShareMode = Static<typeof ShareMode>;

/**
 * The 'shared with X' mark of a listed site: the other party's operator name (owner or partner, seen
 * from the current operator; several joined by ', ') and the mode, both null for a site not shared.
 * Every place that lists sites to a user (site map, overall site summary, site report) carries it.
 */
export const SiteSharingFields = {
  sharedWith: Type.Union([Type.String(), Type.Null()]),
  shareMode: Type.Union([ShareMode, Type.Null()]),
};
export interface SiteSharing {
  sharedWith: string | null;
  shareMode: ShareMode | null;
}
