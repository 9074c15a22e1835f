// Neighbour relations validation rate: a built dump of ~100,000 LTE relations (sites on a line, three
// sectors on two bands; each cell related to its five siblings directly and to the same band's cells of
// the sites either side through external cells), planned relations that match most of it (5 % of the
// relations left unplanned → EXTRA, a missing relation per 20 cells → MISSING, 2 % of the external cells
// with a stale PCI → WRONG), through the engine the run uses (NetworkIndex + validatePlanned, which is
// validateNeighbourRelations plus the planned target values). Prints relations/s. Needs the built API
// (`npm run bench` builds it; by hand: flock /tmp/cellwise-build.lock node scripts/build.mjs).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'api/dist');
const TARGET_RELATIONS = Number(process.env.BENCH_RELATIONS || 100_000);

if (!fs.existsSync(path.join(DIST, 'validation/neighbours.js'))) {
  console.error(`bench/neighbour-validation: ${DIST}/validation is missing; build the API first (flock /tmp/cellwise-build.lock node scripts/build.mjs).`);
  process.exit(1);
}
const requireApi = createRequire(path.join(ROOT, 'api/package.json'));
const { NetworkIndex } = requireApi('./dist/domain/planning/index.js');
const { validatePlanned } = requireApi('./dist/validation/neighbours.js');

const BANDS = [
  ['L800', 6300],
  ['L1800', 1850],
];
const SECTORS = 3;
const CELLS_PER_SITE = BANDS.length * SECTORS;
// 5 siblings + the same band's 3 sectors on each side.
const RELATIONS_PER_CELL = CELLS_PER_SITE - 1 + 2 * SECTORS;

function buildDump(siteCount) {
  const cells = [];
  const externalCells = [];
  const relations = [];
  const site = (i) => `LX${String(i + 1).padStart(5, '0')}`;
  const cellName = (i, b, s) => `${site(i)}_${BANDS[b][0]}_${s + 1}`;
  const dn = (i, b, s) => `SubNetwork=1,MeContext=${site(i)},ManagedElement=1,ENodeBFunction=1,EUtranCellFDD=${cellName(i, b, s)}`;
  const pciOf = (i, b, s) => (3 * ((i * 37 + b * 11) % 168) + s) % 504;
  for (let i = 0; i < siteCount; i++) {
    for (let b = 0; b < BANDS.length; b++) {
      for (let s = 0; s < SECTORS; s++) {
        cells.push({
          name: cellName(i, b, s),
          dn: dn(i, b, s),
          altDns: [],
          nodeName: site(i),
          siteId: site(i),
          tech: '4G',
          band: BANDS[b][0],
          channel: BANDS[b][1],
          pci: pciOf(i, b, s),
          psc: null,
          bsic: null,
          lac: null,
          tac: 1000 + Math.floor(i / 50),
          nrTac: null,
          azimuth: s * 120,
          cpichPower: null,
          maxTxPower: null,
          plmns: ['268-01'],
          rachRootSequence: null,
          ssb: null,
          cellId: b * 10 + s + 1,
          localCellId: null,
          ownerId: i + 1,
          globalId: `268-01-${i + 1}-${b * 10 + s + 1}`,
        });
      }
    }
  }
  let stale = 0;
  for (let i = 0; i < siteCount; i++) {
    for (let b = 0; b < BANDS.length; b++) {
      for (let s = 0; s < SECTORS; s++) {
        const source = dn(i, b, s);
        const targets = [];
        for (let tb = 0; tb < BANDS.length; tb++) for (let ts = 0; ts < SECTORS; ts++) if (tb !== b || ts !== s) targets.push(dn(i, tb, ts));
        for (const j of [i - 1, i + 1]) {
          const k = (j + siteCount) % siteCount;
          for (let ts = 0; ts < SECTORS; ts++) {
            const extDn = `${source.slice(0, source.indexOf(',EUtranCellFDD='))},EUtraNetwork=1,ExternalENodeBFunction=${k + 1},ExternalEUtranCellFDD=${cellName(k, b, ts)}__${i}_${s}`;
            const wrong = stale++ % 50 === 0;
            externalCells.push({
              dn: extDn,
              name: cellName(k, b, ts),
              kind: '4G',
              nodeName: site(i),
              pci: wrong ? (pciOf(k, b, ts) + 1) % 504 : pciOf(k, b, ts),
              psc: null,
              bsic: null,
              channel: BANDS[b][1],
              band: BANDS[b][0],
              tac: null,
              lac: null,
              plmn: '268-01',
              ownerId: k + 1,
              cellId: b * 10 + ts + 1,
              globalId: `268-01-${k + 1}-${b * 10 + ts + 1}`,
            });
            targets.push(extDn);
          }
        }
        targets.forEach((target, n) =>
          relations.push({
            dn: `${source},EUtranFreqRelation=1,EUtranCellRelation=${n + 1}`,
            name: String(n + 1),
            nodeName: site(i),
            sourceCellDn: source,
            kind: 'LTE-LTE',
            targetRef: target,
            createdBy: n % 3 === 0 ? 'ANR' : 'OPERATOR',
            isRemoveAllowed: n % 7 !== 0,
            isHoAllowed: true,
          }),
        );
      }
    }
  }
  return { cells, externalCells, relations };
}

/** What an engineer would plan: the dump's pairs, 5 % left out, and one pair per 20 cells the dump lacks. */
function plannedOf(dump) {
  const byDn = new Map(dump.cells.map((c) => [c.dn, c]));
  const extByDn = new Map(dump.externalCells.map((e) => [e.dn, e]));
  const planned = [];
  dump.relations.forEach((r, n) => {
    if (n % 20 === 7) return;
    const source = byDn.get(r.sourceCellDn).name;
    const target = byDn.get(r.targetRef)?.name ?? extByDn.get(r.targetRef).name;
    planned.push({ source, target, pci: null, channel: null, tac: null, file: 'planned.xlsx', row: n + 2 });
  });
  dump.cells.forEach((c, n) => {
    if (n % 20 === 0) planned.push({ source: c.name, target: `${c.siteId}_L2600_1`, pci: null, channel: null, tac: null, file: 'planned.xlsx', row: 0 });
  });
  return planned;
}

function best(runs, fn) {
  let fastest = Infinity;
  let result;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    result = fn();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return { ms: fastest, result };
}

const siteCount = Math.ceil(TARGET_RELATIONS / (CELLS_PER_SITE * RELATIONS_PER_CELL));
const dump = buildDump(siteCount);
const planned = plannedOf(dump);
console.log(
  `dump: ${siteCount.toLocaleString('en-US')} sites, ${dump.cells.length.toLocaleString('en-US')} cells, ${dump.externalCells.length.toLocaleString('en-US')} external cells, ${dump.relations.length.toLocaleString('en-US')} relations; ${planned.length.toLocaleString('en-US')} planned`,
);

const index = best(5, () => new NetworkIndex(dump));
const validate = best(5, () => validatePlanned(planned, index.result));
const counts = {};
for (const row of validate.result.rows) counts[row.verdict] = (counts[row.verdict] ?? 0) + 1;
const total = index.ms + validate.ms;
const perSecond = (ms) => Math.round(dump.relations.length / (ms / 1000)).toLocaleString('en-US');
console.log(
  `verdicts: ${Object.entries(counts)
    .map(([verdict, n]) => `${verdict} ${n.toLocaleString('en-US')}`)
    .join(', ')}`,
);
console.log(`index the dump:              ${index.ms.toFixed(0)} ms (${perSecond(index.ms)} relations/s)`);
console.log(`validate planned vs dump:    ${validate.ms.toFixed(0)} ms (${perSecond(validate.ms)} relations/s)`);
console.log(`neighbour validation rate:   ${perSecond(total)} relations/s (index + validate, best of 5)`);
