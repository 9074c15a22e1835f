import { Type, type Static } from '@sinclair/typebox';
import { SiteSharingFields } from './network';

/**
 * Dashboards (specification §3 Dashboard, §7 `Dashboard/Inspect`, §9; docs/engines/monitoring.md#dashboards).
 *
 * A dashboard record (`id`, `type`, `name`, `url`, `serverId`) is stored and edited by administrators.
 * BI servers are configured on the server only (environment), with what mints embed tokens (Power BI:
 * a service principal's credentials; Tableau: trusted authentication, Tableau trusting the console
 * server's address); the browser sees a server's id, type, name and origin, never a secret. `Dashboard/Inspect` answers
 * `{ data: DashboardView }`: the record with an `accessToken` minted for this call (never stored), or
 * `native: true` when the record names no configured server, in which case the page draws the
 * console's own rollout charts (`Dashboard/GetRollout`).
 *
 * Calls:
 * - `GET Dashboard/Inspect?dashboardId=&userId=` → `{ data: DashboardView }`; any session (userId must
 *   be the caller's own id: 403 otherwise); 404 `Dashboard not found.`; 502 `{ message }` when the BI
 *   server refused to mint a token (the message says which server and why, never a secret).
 * - `GET Dashboard/GetServers` → `{ data: BiServer[] }`; Administrator.
 * - `PUT Dashboard/Update` body `DashboardUpdate` → `{ data: DashboardRecord }`; Administrator; 400 on a
 *   serverId that is not configured or whose type differs from the record's, on a url that is not
 *   https (http allowed only for loopback hosts, for tests).
 * - `GET Dashboard/GetRollout?weeks=` → `RolloutStats`; any session (the readings are the same data the
 *   tracking and monitoring pages show).
 * - `GET Monitoring/GetSiteMap` → `SiteMapResponse`; any session that may open the dashboard route.
 */

export const DASHBOARD_TYPES = ['Tableau', 'PowerBI'] as const;
export type DashboardType = (typeof DASHBOARD_TYPES)[number];
const DashboardTypeSchema = Type.Union(DASHBOARD_TYPES.map((t) => Type.Literal(t)));

/** The rollout dashboard's record id (specification §9). */
export const ROLLOUT_DASHBOARD_ID = 2;

export const DASHBOARD_MESSAGES = {
  notFound: 'Dashboard not found.',
  updated: 'Dashboard updated!',
  unknownServer: 'That BI server is not configured on the server.',
  serverTypeMismatch: "The BI server's type does not match the dashboard's type.",
} as const;

/** Ids are 32-bit integer columns: a larger number names no row (and PostgreSQL would refuse to compare it). */
const Id = () => Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const DashboardRecord = Type.Object(
  {
    id: Id(),
    type: DashboardTypeSchema,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    /** Power BI: the report's embed URL (reportEmbed?reportId=…&groupId=…); Tableau: the view's URL. */
    url: Type.String({ maxLength: 2000 }),
    /** A configured BI server's id; null draws the native charts. */
    serverId: Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type DashboardRecord = Static<typeof DashboardRecord>;

export const DashboardUpdate = DashboardRecord;
export type DashboardUpdate = Static<typeof DashboardUpdate>;

export const DashboardView = Type.Object(
  {
    id: Type.Integer(),
    type: DashboardTypeSchema,
    name: Type.String(),
    url: Type.String(),
    serverId: Type.Union([Type.String(), Type.Null()]),
    /**
     * Minted for this call (Power BI embed token; Tableau trusted ticket, which the page puts into the
     * view's URL as `/trusted/<ticket>/…` and which Tableau redeems once); null when native.
     */
    accessToken: Type.Union([Type.String(), Type.Null()]),
    /**
     * When the token expires (ISO-8601 UTC). Power BI: the page refreshes it in place before then.
     * Tableau: the ticket must be redeemed by then (3 minutes); the view's session outlives it.
     */
    expiresAt: Type.Union([Type.String(), Type.Null()]),
    /** True when no BI server is configured for this record: the page draws the native charts. */
    native: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type DashboardView = Static<typeof DashboardView>;

export const DashboardInspectQuery = Type.Object({ dashboardId: Id(), userId: Id() }, { additionalProperties: false });
export type DashboardInspectQuery = Static<typeof DashboardInspectQuery>;

export const DashboardInspectResponse = Type.Object({ data: DashboardView }, { additionalProperties: false });
export type DashboardInspectResponse = Static<typeof DashboardInspectResponse>;
export const DashboardUpdateResponse = Type.Object({ data: DashboardRecord }, { additionalProperties: false });
export type DashboardUpdateResponse = Static<typeof DashboardUpdateResponse>;

export const BiServer = Type.Object(
  { id: Type.String(), type: DashboardTypeSchema, name: Type.String(), origin: Type.String() },
  { additionalProperties: false },
);
export type BiServer = Static<typeof BiServer>;
export const BiServerList = Type.Object({ data: Type.Array(BiServer) }, { additionalProperties: false });
export type BiServerList = Static<typeof BiServerList>;

/** ISO week label, e.g. `2026-W47`. */
const IsoWeek = Type.String({ pattern: '^\\d{4}-W\\d{2}$' });

export const RolloutQuery = Type.Object({ weeks: Type.Optional(Type.Integer({ minimum: 1, maximum: 104 })) }, { additionalProperties: false });
export type RolloutQuery = Static<typeof RolloutQuery>;
export const DEFAULT_ROLLOUT_WEEKS = 12;

export const RolloutStats = Type.Object(
  {
    /** The weeks shown, oldest first, ending with the current ISO week. */
    weeks: Type.Array(IsoWeek),
    /** Sites commissioned per week: planned (commissioning plan) vs done (tracker, delivered). */
    commissionedPerWeek: Type.Array(Type.Object({ week: IsoWeek, planned: Type.Integer(), done: Type.Integer() }, { additionalProperties: false })),
    /** Tracker rows per current status. */
    trackerStatus: Type.Array(Type.Object({ status: Type.String(), count: Type.Integer() }, { additionalProperties: false })),
    /** Work orders not closed, per type. */
    openWorkOrdersByType: Type.Array(Type.Object({ type: Type.String(), count: Type.Integer() }, { additionalProperties: false })),
    /** Active alarms per raise week and severity. */
    alarmsBySeverityPerWeek: Type.Array(Type.Object({ week: IsoWeek, severity: Type.String(), count: Type.Integer() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type RolloutStats = Static<typeof RolloutStats>;

export const MAP_TECHNOLOGIES = ['2G', '3G', '4G', '5G'] as const;
export type MapTechnology = (typeof MAP_TECHNOLOGIES)[number];
export const MAP_STATUSES = ['OK', 'NOK', 'NO_DATA'] as const;
export type MapStatus = (typeof MAP_STATUSES)[number];

/** Specification §9 map state defaults. */
export const MAP_DEFAULTS = { lat: 38.74, lon: -9.2, zoom: 6, zoomTo: 9 } as const;

export const SiteMapSite = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    lat: Type.Number(),
    lon: Type.Number(),
    technologies: Type.Array(Type.Union(MAP_TECHNOLOGIES.map((t) => Type.Literal(t)))),
    /** Overall: NOK when any status is NOK, OK when all known are OK, NO_DATA when no log was parsed. */
    status: Type.Union(MAP_STATUSES.map((s) => Type.Literal(s))),
    alarmStatus: Type.Union([Type.String(), Type.Null()]),
    radioStatus: Type.Union([Type.String(), Type.Null()]),
    coreStatus: Type.Union([Type.String(), Type.Null()]),
    /** The site's tracker row id, when the tracker lists it. */
    trackerId: Type.Union([Type.Integer(), Type.Null()]),
    /** Whom the site is shared with (RAN sharing), for the popup's 'shared with X'. */
    ...SiteSharingFields,
  },
  { additionalProperties: false },
);
export type SiteMapSite = Static<typeof SiteMapSite>;

export const SiteMapResponse = Type.Object(
  {
    sites: Type.Array(SiteMapSite),
    /** Sites of the inventory without coordinates (not drawn). */
    withoutCoordinates: Type.Integer(),
    /** Tile URL template from MAP_TILE_URL (default OpenStreetMap's). */
    tileUrl: Type.String(),
  },
  { additionalProperties: false },
);
export type SiteMapResponse = Static<typeof SiteMapResponse>;
