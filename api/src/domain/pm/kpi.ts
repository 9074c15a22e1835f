/**
 * The KPI counters the PM verdict reads, per technology: accessibility, retainability and handover
 * success, each in the names Ericsson nodes write (`pm…`, GSM's STS names without prefix) and in the
 * 3GPP names (TS 32.425 LTE, TS 32.405 UTRAN, TS 52.402 GSM, TS 28.552 NR and 5GC, TS 32.426 EPC).
 * A formula is judged for a cell when its counters are in the file; the names are specific enough to
 * their technology that which formulas apply follows from the counters themselves.
 *
 * 3GPP measurements with subcounters (`RRC.ConnEstabAtt.mo-Data`, `SM.PduSessionCreationReq.<S-NSSAI>`)
 * are read as their total: the counter itself, else its `.sum`, else the sum of its subcounters.
 */

export type PmTechnology = 'LTE' | 'NR' | 'UTRAN' | 'GSM' | 'Core';
export type KpiFamily = 'accessibility' | 'retainability' | 'handover success';

export interface KpiFormula {
  family: KpiFamily;
  /** How the finding names it: 'RRC setup success', 'E-RAB retainability', … */
  label: string;
  /**
   * success: `succ / att`; drop: `1 - drops / total` (a drop rate read as the share kept). Each side
   * is the sum of its counters.
   */
  kind: 'success' | 'drop';
  numerator: readonly string[];
  denominator: readonly string[];
  /** The lowest ratio that passes. */
  threshold: number;
}

/** Accessibility and retainability below 98 % are NOK: the figure operators accept sites at. */
export const SUCCESS_THRESHOLD = 0.98;
/** Handovers fail more often by nature (radio conditions at the cell edge): NOK below 95 %. */
export const HANDOVER_THRESHOLD = 0.95;

const success = (family: KpiFamily, label: string, succ: readonly string[], att: readonly string[], threshold = SUCCESS_THRESHOLD): KpiFormula => ({
  family,
  label,
  kind: 'success',
  numerator: succ,
  denominator: att,
  threshold,
});
const drop = (label: string, drops: readonly string[], total: readonly string[]): KpiFormula => ({
  family: 'retainability',
  label,
  kind: 'drop',
  numerator: drops,
  denominator: total,
  threshold: SUCCESS_THRESHOLD,
});

export const KPI_FORMULAS: Readonly<Record<PmTechnology, readonly KpiFormula[]>> = {
  LTE: [
    success('accessibility', 'RRC setup success', ['pmRrcConnEstabSucc'], ['pmRrcConnEstabAtt']),
    success('accessibility', 'E-RAB setup success', ['pmErabEstabSuccInit'], ['pmErabEstabAttInit']),
    success('accessibility', 'S1 signalling setup success', ['pmS1SigConnEstabSucc'], ['pmS1SigConnEstabAtt']),
    drop('E-RAB retainability', ['pmErabRelAbnormalEnbAct', 'pmErabRelAbnormalMmeAct'], ['pmErabRelAbnormalEnb', 'pmErabRelNormalEnb', 'pmErabRelMme']),
    success('handover success', 'handover execution success', ['pmHoExeSucc'], ['pmHoExeAtt'], HANDOVER_THRESHOLD),
    // TS 32.425
    success('accessibility', 'RRC setup success', ['RRC.ConnEstabSucc'], ['RRC.ConnEstabAtt']),
    success('accessibility', 'E-RAB setup success', ['ERAB.EstabInitSuccNbr'], ['ERAB.EstabInitAttNbr']),
    success('handover success', 'intra-eNB handover success', ['HO.IntraEnbOutSucc'], ['HO.IntraEnbOutAtt'], HANDOVER_THRESHOLD),
    success('handover success', 'inter-eNB handover success', ['HO.InterEnbOutSucc'], ['HO.InterEnbOutAtt'], HANDOVER_THRESHOLD),
  ],
  NR: [
    // TS 28.552 (RRC.ConnEstab* are shared with LTE's TS 32.425 names: one formula serves both).
    success('accessibility', 'DRB setup success', ['DRB.EstabSucc'], ['DRB.EstabAtt']),
    success('accessibility', 'QoS flow setup success', ['QF.EstabSuccNbr'], ['QF.EstabAttNbr']),
    success('handover success', 'intra-gNB handover success', ['MM.HoExeIntraSucc'], ['MM.HoExeIntraReq'], HANDOVER_THRESHOLD),
    success('handover success', 'inter-gNB handover success', ['MM.HoExeInterSucc'], ['MM.HoExeInterReq'], HANDOVER_THRESHOLD),
    // Ericsson NR (pmRrcConnEstab* are the LTE formula's names).
    success('accessibility', 'NG signalling setup success', ['pmNgSigConnEstabSucc'], ['pmNgSigConnEstabAtt']),
  ],
  UTRAN: [
    success('accessibility', 'RRC setup success', ['pmTotNoRrcConnectReqSuccess'], ['pmTotNoRrcConnectReq']),
    success('accessibility', 'speech RAB setup success', ['pmNoRabEstablishSuccessSpeech'], ['pmNoRabEstablishAttemptSpeech']),
    success('accessibility', 'PS RAB setup success', ['pmNoRabEstablishSuccessPacketInteractive'], ['pmNoRabEstablishAttemptPacketInteractive']),
    drop('speech retainability', ['pmNoSystemRabReleaseSpeech'], ['pmNoSystemRabReleaseSpeech', 'pmNoNormalRabReleaseSpeech']),
    drop('PS retainability', ['pmNoSystemRabReleasePacket'], ['pmNoSystemRabReleasePacket', 'pmNoNormalRabReleasePacket']),
    success('handover success', 'soft handover success', ['pmRlAddSuccessBestCellSpeech'], ['pmRlAddAttemptsBestCellSpeech'], HANDOVER_THRESHOLD),
    // TS 32.405
    success('accessibility', 'RRC setup success', ['RRC.SuccConnEstab'], ['RRC.AttConnEstab']),
  ],
  GSM: [
    success('accessibility', 'SDCCH establishment success', ['CMSESTAB'], ['CCALLS']),
    success('accessibility', 'TCH assignment success', ['TFCASSALL', 'THCASSALL'], ['TASSALL']),
    drop('TCH retainability', ['TFNDROP', 'THNDROP'], ['TFCASSALL', 'THCASSALL']),
    success('handover success', 'handover success', ['HOVERSUC'], ['HOVERCNT'], HANDOVER_THRESHOLD),
    // TS 52.402
    success('accessibility', 'TCH seizure success', ['succTCHSeizures'], ['attTCHSeizures']),
    success('accessibility', 'immediate assignment success', ['succImmediateAssignProcs'], ['attImmediateAssignProcs']),
  ],
  Core: [
    // TS 28.552 AMF and SMF, TS 32.426 MME.
    success('accessibility', 'initial registration success', ['RM.RegInitSucc'], ['RM.RegInitReq']),
    success('accessibility', 'PDU session creation success', ['SM.PduSessionCreationSucc'], ['SM.PduSessionCreationReq']),
    success('accessibility', 'EPS attach success', ['MM.EpsAttachSucc'], ['MM.EpsAttachAtt']),
  ],
};

/** Cell outage counters (Ericsson LTE, NR and UTRAN cells): any second down is NOK. */
export const DOWNTIME_COUNTERS = ['pmCellDowntimeAuto', 'pmCellDowntimeMan'] as const;

/** Every formula once, in catalogue order (a formula shared by two technologies is listed under the first). */
export const ALL_FORMULAS: readonly KpiFormula[] = Object.values(KPI_FORMULAS).flat();

/** Every counter name a formula or the outage check reads. */
export const KPI_COUNTERS: ReadonlySet<string> = new Set([...DOWNTIME_COUNTERS, ...ALL_FORMULAS.flatMap((f) => [...f.numerator, ...f.denominator])]);

/**
 * The technology of a measured object, from the classes of its DN (`…,EUtranCellFDD=X`, `…,AMFFunction=1`);
 * null when no class tells.
 */
export function technologyOfObject(ldn: string): PmTechnology | null {
  const rdns = ldn.split(',');
  for (let i = rdns.length - 1; i >= 0; i--) {
    const cls = (rdns[i] as string).split('=')[0]?.trim() ?? '';
    const tech = CLASS_TECHNOLOGY[cls];
    if (tech) return tech;
  }
  return null;
}

const CLASS_TECHNOLOGY: Record<string, PmTechnology> = {
  EUtranCellFDD: 'LTE',
  EUtranCellTDD: 'LTE',
  EUtranCellRelation: 'LTE',
  EUtranFreqRelation: 'LTE',
  ENodeBFunction: 'LTE',
  NbIotCell: 'LTE',
  NRCellCU: 'NR',
  NRCellDU: 'NR',
  NRCellRelation: 'NR',
  GNBCUCPFunction: 'NR',
  GNBCUUPFunction: 'NR',
  GNBDUFunction: 'NR',
  UtranCell: 'UTRAN',
  UtranRelation: 'UTRAN',
  RncFunction: 'UTRAN',
  NodeBFunction: 'UTRAN',
  GeranCell: 'GSM',
  GsmCell: 'GSM',
  GeranCellRelation: 'GSM',
  BscFunction: 'GSM',
  BtsFunction: 'GSM',
  GsmSector: 'GSM',
  AMFFunction: 'Core',
  SMFFunction: 'Core',
  UPFFunction: 'Core',
  AUSFFunction: 'Core',
  UDMFunction: 'Core',
  PCFFunction: 'Core',
  NRFFunction: 'Core',
  NSSFFunction: 'Core',
  MMEFunction: 'Core',
  MmeFunction: 'Core',
  SgwFunction: 'Core',
  PgwFunction: 'Core',
  SGSNFunction: 'Core',
  GGSNFunction: 'Core',
  MscServerFunction: 'Core',
};

/** Classes of the objects a verdict speaks of: counters of a relation or a sector count for the cell above it. */
const CELL_CLASSES = new Set(['EUtranCellFDD', 'EUtranCellTDD', 'NbIotCell', 'NRCellCU', 'NRCellDU', 'UtranCell', 'GeranCell', 'GsmCell']);

/**
 * The object a finding names: the nearest cell of the DN by its name (`…,EUtranCellFDD=A,EUtranFreqRelation=1,
 * EUtranCellRelation=B` → A), else the last RDN whole (`SMFFunction=1`: a bare "1" would say nothing).
 */
export function judgedObjectOf(ldn: string): { name: string; cell: boolean } {
  const rdns = ldn.split(',');
  for (let i = rdns.length - 1; i >= 0; i--) {
    const rdn = rdns[i] as string;
    const eq = rdn.indexOf('=');
    if (eq > 0 && CELL_CLASSES.has(rdn.slice(0, eq).trim())) return { name: rdn.slice(eq + 1).trim(), cell: true };
  }
  return { name: (rdns[rdns.length - 1] ?? ldn).trim(), cell: false };
}

/**
 * The base measurement a counter name adds to and how: `RRC.ConnEstabAtt` (the total), `RRC.ConnEstabAtt.sum`
 * (its sum), `RRC.ConnEstabAtt.mo-Data` (a subcounter); null when no formula reads it.
 */
export function kpiCounterOf(name: string): { base: string; part: 'total' | 'sum' | 'sub' } | null {
  if (KPI_COUNTERS.has(name)) return { base: name, part: 'total' };
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  const base = name.slice(0, dot);
  if (!KPI_COUNTERS.has(base)) return null;
  return { base, part: name.slice(dot + 1) === 'sum' ? 'sum' : 'sub' };
}
