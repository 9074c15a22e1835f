import { NetworkOptionError } from './errors';
import {
  compileSiteRule,
  DEFAULT_SITE_RULE,
  DEFAULT_SITE_RULE_SOURCE,
  defaultSiteId,
  MAX_SITE_RULE_LENGTH,
  siteIdBy,
  type SiteSummary,
  siteWarnings,
} from './site-rule';

describe('the default site rule', () => {
  it.each([
    // Type prefix, site number, name, technology suffix: the ENM convention.
    ['ERBS_41428_KAINARFARM_K', '41428'],
    ['ERBS_12345_SOMEWHERE_K', '12345'],
    ['RBS_12345_SOMEWHERE_W', '12345'],
    ['MSRBS_V2_12345_SOMEWHERE_G', '12345'],
    ['MSRBS_12345_SOMEWHERE', '12345'],
    ['NR_12345_SOMEWHERE', '12345'],
    ['GNB_12345_X', '12345'],
    ['ENB-12345-X', '12345'],
    ['NODEB_12345', '12345'],
    ['BTS_12345_X', '12345'],
    ['5G_12345_A', '12345'],
    ['ERBS_NR_12345', '12345'],
    // Known prefix before a site without digits.
    ['BTS_ALFAMA_1', 'ALFAMA'],
    // Any other alphabetic prefix, when a site code follows it.
    ['erbs_41428_kainarfarm_k', '41428'],
    ['SITE_41428', '41428'],
    ['L_LX0001', 'LX0001'],
    // The site number first.
    ['41428_NAME', '41428'],
    ['41428', '41428'],
    ['4698', '4698'],
    // Letter+digit codes, alone, with a suffix or behind a prefix.
    ['LX0001', 'LX0001'],
    ['NR_LX0001_A', 'LX0001'],
    ['GNB-LX0002', 'LX0002'],
    ['LX0456_L', 'LX0456'],
    ['LX0123_L', 'LX0123'],
    ['LX0123_L800_1', 'LX0123'],
    ['LX0123U1', 'LX0123'],
    ['RNC07', 'RNC07'],
    // Cell names of controllers.
    ['LX0950_U2100F1_1', 'LX0950'],
    ['12345W1', '12345'],
    // Names without a site code: the whole name but a trailing technology / sector suffix.
    ['ALFAMA_G', 'ALFAMA'],
    ['ALFAMA_2', 'ALFAMA'],
    // Place names hold underscores (issue 43): the site is the whole name, not its first word.
    ['tel_aviv', 'tel_aviv'],
    ['KFAR_SABA', 'KFAR_SABA'],
    ['KFAR-SABA', 'KFAR-SABA'],
    ['RAMAT_HA_SHARON', 'RAMAT_HA_SHARON'],
    ['KFAR_SABA_L', 'KFAR_SABA'],
    ['tel_aviv_1', 'tel_aviv'],
    ['RAMAT_GAN_U1', 'RAMAT_GAN'],
    ['ERBS_KFAR_SABA_L', 'KFAR_SABA'],
    ['BTS_tel_aviv', 'tel_aviv'],
    ['Chiado', 'Chiado'],
    ['ERBS', 'ERBS'],
    ['  LX0123_L ', 'LX0123'],
  ])('%s → %s', (name, id) => {
    expect(defaultSiteId(name)).toBe(id);
    expect(siteIdBy(DEFAULT_SITE_RULE, name)).toEqual({ siteId: id, matched: true });
  });

  it('keeps a name it does not match whole, and says it did not match', () => {
    expect(siteIdBy(DEFAULT_SITE_RULE, '_LX0001')).toEqual({ siteId: '_LX0001', matched: false });
    expect(siteIdBy(DEFAULT_SITE_RULE, '-')).toEqual({ siteId: '-', matched: false });
  });

  it('takes time linear in the name, even on a long name of many words that never ends in a suffix', () => {
    const name = `${'KFAR_'.repeat(20_000)}SABA!`;
    const started = process.hrtime.bigint();
    expect(defaultSiteId(name)).toBe(name);
    // Quadratic backtracking over 100,000 characters takes seconds; one pass takes milliseconds.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(500);
  });

  it('is a rule a user could type: within the length limit, and shown as written', () => {
    expect(DEFAULT_SITE_RULE.source).toBe(DEFAULT_SITE_RULE_SOURCE);
    expect(DEFAULT_SITE_RULE_SOURCE.length).toBeLessThanOrEqual(MAX_SITE_RULE_LENGTH);
    expect(compileSiteRule(DEFAULT_SITE_RULE_SOURCE).match('ERBS_41428_KAINARFARM_K')).toBe('41428');
  });
});

describe('compileSiteRule', () => {
  it('finds the site group anywhere in the name unless anchored', () => {
    const rule = compileSiteRule('_(?<site>\\d{5})_');
    expect(rule.match('ERBS_41428_KAINARFARM_K')).toBe('41428');
    expect(rule.match('41428_NAME')).toBeNull();
    expect(rule.source).toBe('_(?<site>\\d{5})_');
    const anchored = compileSiteRule('^(?<site>[A-Z]{2}\\d{4})');
    expect(anchored.match('LX0001_A')).toBe('LX0001');
    expect(anchored.match('NR_LX0001_A')).toBeNull();
  });

  it('treats an empty site group as no match', () => {
    const rule = compileSiteRule('^(?<site>\\d*)');
    expect(rule.match('12345_X')).toBe('12345');
    expect(rule.match('ERBS_12345')).toBeNull();
    expect(siteIdBy(rule, 'ERBS_12345')).toEqual({ siteId: 'ERBS_12345', matched: false });
  });

  it.each([
    ['', /the rule is empty/],
    ['   ', /the rule is empty/],
    [`(?<site>${'x'.repeat(MAX_SITE_RULE_LENGTH)})`, /is 209 characters long; at most 200 are accepted/],
    ['(?<site>\\d+', /not a valid regular expression: \/\(\?<site>\\d\+\/: Unterminated group/],
    ['[', /not a valid regular expression/],
    ['^ERBS_(\\d+)', /no group named site; mark the site id with \(\?<site>…\)/],
    ['^ERBS_(?<Site>\\d+)', /no group named site/],
    ['^(?:[A-Z]+_)*(?<site>\\d+)', /"\(\?:\[A-Z\]\+_\)\*" repeats a repetition, which can take exponential time/],
    ['^(?<site>(a+)+)$', /"\(a\+\)\+" repeats a repetition/],
    ['(?<site>(?:\\w{1,3}-?)+)', /"\(\?:\\w\{1,3\}-\?\)\+" repeats a repetition/],
    ['((x|y*)){2,}(?<site>\\d+)', /"\(\(x\|y\*\)\)\{2,\}" repeats a repetition/],
  ])('refuses %j', (source, message) => {
    let error: unknown;
    try {
      compileSiteRule(source);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NetworkOptionError);
    expect((error as Error).message).toMatch(/^site rule: /);
    expect((error as Error).message).toMatch(message);
  });

  it.each(['^(?:[A-Z]+_)?(?<site>\\d{1,6})', '(?<site>[A-Z]{2}\\d{4})', '^(?:ERBS|RBS)_(?<site>\\d+)', '[(+*](?<site>\\d+)\\(+', '^(?<site>(?:\\d{3}){2})'])(
    'accepts %j',
    (source) => {
      expect(compileSiteRule(source).source).toBe(source);
    },
  );
});

describe('siteWarnings', () => {
  const summary = (nodesOnSites: number, top: number, unmatched: SiteSummary['unmatched'] = { count: 0, examples: [] }): SiteSummary => ({
    rule: DEFAULT_SITE_RULE_SOURCE,
    total: 3,
    nodesOnSites,
    largest: top > 0 ? [{ siteId: 'ERBS', nodes: top }] : [],
    unmatched,
  });
  const lumped = (top: number, of: number) => `Site ERBS got ${top} of the ${of} nodes: check that the site rule finds the site in these node names.`;

  it.each<[number, number, string[]]>([
    [0, 0, []],
    // A multi-technology site, alone or among a few.
    [4, 4, []],
    [9, 5, []],
    [400, 6, []],
    [400, 12, []],
    // More nodes than any site carries, or most of a dump of some size.
    [400, 13, [lumped(13, 400)]],
    [10, 6, [lumped(6, 10)]],
    [20, 10, []],
  ])('%d nodes, %d on the largest site', (nodes, top, warnings) => {
    expect(siteWarnings(summary(nodes, top))).toEqual(warnings);
  });

  it('names the names the rule did not match, a few of them', () => {
    expect(siteWarnings(summary(3, 1, { count: 1, examples: ['_X'] }))).toEqual(['1 name did not match the site rule and became site ids whole (_X).']);
    expect(siteWarnings(summary(30, 1, { count: 7, examples: ['A', 'B', 'C', 'D', 'E'] }))).toEqual([
      '7 names did not match the site rule and became site ids whole (A, B, C, D, E, …).',
    ]);
  });
});
