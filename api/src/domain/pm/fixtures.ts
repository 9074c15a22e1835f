/**
 * PM counter files in the shapes real nodes write (3GPP TS 32.435 `measCollecFile`), for the tests of
 * this module and of the import route.
 */

export interface CellCounters {
  cell: string;
  downtimeAuto?: number;
  downtimeMan?: number;
  rrcSucc?: number;
  rrcAtt?: number;
  erabSucc?: number;
  erabAtt?: number;
}

/**
 * Ericsson flavour: the node in fileSender's MeContext, `ManagedElement=1` inside, `measType p` and
 * `r p`, a default namespace, one measInfo per granularity period.
 */
export function ericssonLteFile(node: string, periods: ReadonlyArray<{ end: string; cells: readonly CellCounters[] }>): string {
  const types = ['pmCellDowntimeAuto', 'pmCellDowntimeMan', 'pmRrcConnEstabSucc', 'pmRrcConnEstabAtt', 'pmErabEstabSuccInit', 'pmErabEstabAttInit'];
  const keys = ['downtimeAuto', 'downtimeMan', 'rrcSucc', 'rrcAtt', 'erabSucc', 'erabAtt'] as const;
  const infos = periods.map(
    (period, i) => `    <measInfo measInfoId="PM=1,PmGroup=EUtranCellFDD_${i}">
      <job jobId="USERDEF-Cellwise.Cont.Y.STATS"/>
      <granPeriod duration="PT900S" endTime="${period.end}"/>
      <repPeriod duration="PT900S"/>
${types.map((t, p) => `      <measType p="${p + 1}">${t}</measType>`).join('\n')}
${period.cells
  .map(
    (c) => `      <measValue measObjLdn="ManagedElement=1,ENodeBFunction=1,EUtranCellFDD=${c.cell}">
${keys
  .map((k, p) => (c[k] === undefined ? null : `        <r p="${p + 1}">${c[k]}</r>`))
  .filter(Boolean)
  .join('\n')}
      </measValue>`,
  )
  .join('\n')}
    </measInfo>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="MeasDataCollection.xsl"?>
<measCollecFile xmlns="http://www.3gpp.org/ftp/specs/archive/32_series/32.435#measCollec">
  <fileHeader fileFormatVersion="32.435 V10.0" vendorName="Ericsson AB" dnPrefix="DC=cellwise.local">
    <fileSender localDn="SubNetwork=ONRM_ROOT_MO,SubNetwork=LX,MeContext=${node}" elementType="RadioNode"/>
    <measCollec beginTime="${periods[0]?.end ?? '2024-03-05T10:00:00+00:00'}"/>
  </fileHeader>
  <measData>
    <managedElement localDn="ManagedElement=1" userLabel="${node}" swVersion="CXP2010174/1 R61A"/>
${infos.join('\n')}
  </measData>
  <fileFooter>
    <measCollec endTime="${periods[periods.length - 1]?.end ?? '2024-03-05T10:15:00+00:00'}"/>
  </fileFooter>
</measCollecFile>
`;
}

/** The older layout of the standard's annex: prefixed elements, `measTypes` / `measResults` lists, a `suspect` flag. */
export const ANNEX_STYLE_FILE = `<?xml version="1.0" encoding="UTF-8"?>
<md:measCollecFile xmlns:md="http://www.3gpp.org/ftp/specs/archive/32_series/32.435#measCollec">
  <md:fileHeader fileFormatVersion="32.435 V7.0" vendorName="Company NN">
    <md:fileSender localDn="SubNetwork=CountryNN,MeContext=LX0002,ManagedElement=LX0002" elementType="ENB"/>
    <md:measCollec beginTime="2024-03-05T10:00:00+01:00"/>
  </md:fileHeader>
  <md:measData>
    <md:managedElement localDn="SubNetwork=CountryNN,MeContext=LX0002,ManagedElement=LX0002" userLabel="Lisboa Centro"/>
    <md:measInfo>
      <md:job jobId="1231"/>
      <md:granPeriod duration="PT900S" endTime="2024-03-05T10:15:00+01:00"/>
      <md:repPeriod duration="PT900S"/>
      <md:measTypes>pmRrcConnEstabAtt pmRrcConnEstabSucc pmCellDowntimeAuto pmCounterOther</md:measTypes>
      <md:measValue measObjLdn="ENodeBFunction=1,EUtranCellFDD=LX0002_1">
        <md:measResults>1000 990 0 NIL</md:measResults>
      </md:measValue>
      <md:measValue measObjLdn="ENodeBFunction=1,EUtranCellFDD=LX0002_2">
        <md:measResults>1000 950 0 7</md:measResults>
        <md:suspect>true</md:suspect>
      </md:measValue>
    </md:measInfo>
  </md:measData>
  <md:fileFooter>
    <md:measCollec endTime="2024-03-05T10:15:00+01:00"/>
  </md:fileFooter>
</md:measCollecFile>
`;
