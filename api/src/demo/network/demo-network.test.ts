import { createHash } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import { parseBulkCm } from '../../domain/network/bulkcm';
import { type DemoOptions, type DemoSummary, generateDemoBulkCm, planDemoNetwork } from '.';
import { NetworkOptionError } from '../../domain/network/errors';
import { mapNetwork } from '../../domain/network/mapper';
import { type CoordinateEncoding, totalOf } from '../../domain/network/model';
import { capture, type Captured } from '../../domain/network/__tests__/helpers';

async function generate(options: DemoOptions): Promise<{ bytes: Buffer; summary: DemoSummary }> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk);
      cb();
    },
  });
  const summary = await generateDemoBulkCm(sink, options);
  return { bytes: Buffer.concat(chunks), summary };
}

async function generateAndMap(options: DemoOptions & { coords: CoordinateEncoding }): Promise<{ summary: DemoSummary; got: Captured; counts: unknown }> {
  const pipe = new PassThrough();
  const { sink, got } = capture();
  const [summary, mapped] = await Promise.all([generateDemoBulkCm(pipe, options), mapNetwork(parseBulkCm(pipe), sink, { coords: options.coords })]);
  return { summary, got, counts: mapped.counts };
}

describe('demo generator', () => {
  it('is deterministic for a seed and differs across seeds', async () => {
    const a = await generate({ seed: 42, sites: 12 });
    const b = await generate({ seed: 42, sites: 12 });
    const c = await generate({ seed: 43, sites: 12 });
    const hash = (x: Buffer): string => createHash('sha256').update(x).digest('hex');
    expect(hash(a.bytes)).toBe(hash(b.bytes));
    expect(a.summary).toEqual(b.summary);
    expect(hash(c.bytes)).not.toBe(hash(a.bytes));
    expect(a.summary.bytes).toBe(a.bytes.length);
  });

  it.each<CoordinateEncoding>(['microdegrees', '3gpp', 'degrees'])('reports exactly what the parser and mapper read back (%s coordinates)', async (coords) => {
    const { summary, got, counts } = await generateAndMap({ seed: 7, sites: 40, coords });
    expect(counts).toEqual(summary.counts);
    // Each kind the generator claims to write is really there (a zero on both sides proves nothing).
    expect(Object.values(summary.counts.cells).every((n) => n > 0)).toBe(true);
    expect(Object.values(summary.counts.externalCells).every((n) => n > 0)).toBe(true);
    for (const k of ['LTE-LTE', 'LTE-UTRAN', 'LTE-GERAN', 'LTE-NR', 'NR-NR', 'UTRAN-UTRAN', 'UTRAN-GERAN', 'GERAN-GERAN'] as const) {
      expect(summary.counts.relations[k]).toBeGreaterThan(0);
    }
    expect(got.relations).toHaveLength(totalOf(summary.counts.relations));

    // Positions survive the chosen encoding.
    const plan = planDemoNetwork({ seed: 7, sites: 40 });
    expect(got.sites).toHaveLength(40);
    for (const p of plan) {
      const s = got.sites.find((x) => x.id === p.id);
      expect(s?.name).toBe(p.name);
      expect(Math.abs((s?.lat ?? 0) - p.lat)).toBeLessThan(2e-5);
      expect(Math.abs((s?.lon ?? 0) - p.lon)).toBeLessThan(3e-5);
    }
  });

  it('writes a realistic Lisbon network', async () => {
    const { summary, got } = await generateAndMap({ seed: 3, sites: 60, coords: 'microdegrees' });
    for (const s of got.sites) {
      expect(s.lat).toBeGreaterThanOrEqual(38.6);
      expect(s.lat).toBeLessThanOrEqual(38.9);
      expect(s.lon).toBeGreaterThanOrEqual(-9.4);
      expect(s.lon).toBeLessThanOrEqual(-9.0);
    }
    const channels = (tech: string): number[] => [...new Set(got.cells.filter((c) => c.tech === tech).map((c) => c.channel ?? -1))].sort((a, b) => a - b);
    expect(channels('4G')).toEqual([100, 1850, 6300, 9360]);
    expect(channels('3G')).toEqual([3011, 10612, 10637, 10662]);
    expect(channels('5G')).toEqual([636666, 643334]);
    expect(new Set(got.cells.filter((c) => c.tech === '2G').map((c) => c.band))).toEqual(new Set(['G900', 'G1800']));
    expect(got.cells.every((c) => c.band !== null)).toBe(true);

    // Azimuths per site are three sectors around 0/120/240.
    const lte1 = got.cells.filter((c) => c.tech === '4G' && c.name.endsWith('_L800_2'));
    expect(lte1.every((c) => c.azimuth !== null && Math.abs(c.azimuth - 120) <= 15)).toBe(true);

    // RAN sharing: some cells broadcast both PLMNs, most only the host's.
    const shared = got.cells.filter((c) => c.plmns.length === 2);
    expect(shared.length).toBeGreaterThan(0);
    expect(shared[0]?.plmns).toEqual(['268-01', '268-03']);
    expect(got.cells.filter((c) => c.tech === '4G' && c.plmns.length === 1).length).toBeGreaterThan(shared.length);

    // CPICH plan ~300 / 430 in 0.1 dBm, except the deliberately wrong cells the summary lists.
    const umts = got.cells.filter((c) => c.tech === '3G');
    const wrong = new Set(summary.cpichOutOfRange);
    expect(wrong.size).toBeGreaterThan(0);
    for (const c of umts) {
      const cpich = c.cpichPower ?? 0;
      const max = c.maxTxPower ?? 0;
      const ok = max === 430 && cpich >= max - 120 && cpich <= max - 80;
      expect(ok).toBe(!wrong.has(c.name));
    }

    // Relations: ANR and operator ones, some protected from removal.
    const createdBy = new Set(got.relations.map((r) => r.createdBy));
    expect(createdBy).toEqual(new Set(['ANR', 'X2', 'OPERATOR', null]));
    expect(got.relations.some((r) => !r.isRemoveAllowed)).toBe(true);
    expect(got.relations.some((r) => !r.isHoAllowed)).toBe(true);

    // Proxies of our own cells resolve by identity; those of the other OSS match nothing in the dump.
    const ids = new Set(got.cells.map((c) => `${c.tech === 'NB-IoT' ? '4G' : c.tech}|${c.globalId}`));
    const lteExt = got.externalCells.filter((e) => e.kind === '4G');
    const foreign = lteExt.filter((e) => (e.ownerId ?? 0) >= 900000);
    expect(foreign.length).toBeGreaterThan(0);
    for (const e of lteExt) expect(ids.has(`4G|${e.globalId}`)).toBe((e.ownerId ?? 0) < 900000);
    for (const e of got.externalCells.filter((x) => x.kind !== '4G')) expect(ids.has(`${e.kind}|${e.globalId}`)).toBe(true);

    // Every relation target is a cell or external cell of the dump.
    const dns = new Set([...got.cells.flatMap((c) => [c.dn, ...c.altDns]), ...got.externalCells.map((e) => e.dn)]);
    expect(got.relations.filter((r) => r.targetRef === null || !dns.has(r.targetRef))).toEqual([]);
  });

  it('scales the number of sites to a target size', async () => {
    const { summary } = await generate({ seed: 5, sizeMb: 3 });
    expect(summary.bytes).toBeGreaterThan(3e6 * 0.8);
    expect(summary.bytes).toBeLessThan(3e6 * 1.2);
    expect(summary.sites).toBe(summary.counts.sites);
  });

  it('rejects an unknown coordinate encoding', async () => {
    await expect(generate({ sites: 2, coords: 'lambert' as CoordinateEncoding })).rejects.toBeInstanceOf(NetworkOptionError);
  });
});
