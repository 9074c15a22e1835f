import { NetworkOptionError } from './errors';

/**
 * The site rule of docs/engines/network.md#the-site-rule: which part of a node name (and, for RNC/BSC cells, of a cell name) is
 * the site id. Real networks write it in many ways (`ERBS_41428_KAINARFARM_K`, `41428_NAME`, `LX0001`,
 * `NR_LX0001_A`), so the rule is an import setting: a regular expression with a named group `site`.
 * It is searched for anywhere in the name (anchor it with `^` when the id must lead).
 */
export interface SiteRule {
  /** The regular expression as written, shown in import summaries so a wrong rule can be recognised. */
  readonly source: string;
  /** The site id the rule finds in a name; null when it finds none (or an empty one). */
  match(name: string): string | null;
}

/** Rules are typed by people into a form field; anything longer is more likely a mistake than a rule. */
export const MAX_SITE_RULE_LENGTH = 200;

/**
 * Technology / node-type prefixes some operators put before the site: stripped even when what follows
 * does not look like a site code (`BTS_ALFAMA_1` → `ALFAMA`). `MSRBS_V\d` is tried before `MSRBS` so
 * the version is not taken for a site. Upper case only: lower-case prefixes are handled by the generic
 * branch when a site code follows. Written compactly (`E?RBS` = ERBS and RBS; `[EG]?NODEB`, `[EG]NB`)
 * so the whole default stays within {@link MAX_SITE_RULE_LENGTH}.
 */
const TYPE_PREFIXES = ['MSRBS(?:_V\\d)?', 'E?RBS', 'RADIONODE', '[EG]?NODEB', '[EG]NB', 'NR', 'LTE', 'NBIOT', 'UMTS', 'WCDMA', 'GSM', 'BTS', '[2345]G'];

/**
 * The default rule, written as a rule a user could have typed (and can start from):
 * 1. any number of known type prefixes, each followed by `_` or `-`;
 * 2. optionally one other alphabetic token and `_`/`-` when a site code follows (up to three letters
 *    and at least three digits: `SITE_41428`, `x_LX0001`), so `ALFAMA_2` keeps ALFAMA;
 * 3. the site: letters then digits (`LX0001`, `41428`, `RNC07`; `LX0123U1` → `LX0123`), or, for
 *    names without a site code, the whole name but one trailing technology / sector suffix of a
 *    character and digits (`KFAR_SABA` and `tel_aviv` stay whole: place names hold underscores;
 *    `ALFAMA_G` → `ALFAMA`, `RAMAT_GAN_U1` → `RAMAT_GAN`).
 * It has no nested repetition, so {@link compileSiteRule} accepts it like any user rule; the lazy
 * branch tries each end of the site once, so it stays linear in the name's length.
 */
export const DEFAULT_SITE_RULE_SOURCE = `^(?:(?:${TYPE_PREFIXES.join('|')})[_-])*(?:[A-Za-z]+[_-](?=[A-Za-z]{0,3}\\d{3}))?(?<site>[A-Za-z]*\\d+|[^\\d_-].*?(?=([_-]\\w\\d*)?$))`;

/**
 * Compiles a site rule, refusing (with a message fit for the user) a pattern that is too long, does
 * not compile, has no group named `site`, or repeats a repetition (`(a+)+`, `(?:[A-Z]+_)*`): those can
 * take exponential time on an unlucky name, and the rule runs once per node of a dump.
 */
export function compileSiteRule(source: string): SiteRule {
  if (source.trim() === '') throw new NetworkOptionError('site rule: the rule is empty; give a regular expression with a group (?<site>…)');
  if (source.length > MAX_SITE_RULE_LENGTH) {
    throw new NetworkOptionError(`site rule: the rule is ${source.length} characters long; at most ${MAX_SITE_RULE_LENGTH} are accepted`);
  }
  let regex: RegExp;
  try {
    regex = new RegExp(source);
  } catch (error) {
    throw new NetworkOptionError(`site rule: not a valid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}`);
  }
  // An empty alternative always matches, and a match lists every named group of the pattern.
  const groups = new RegExp(`(?:${source})|`).exec('')?.groups ?? {};
  if (!('site' in groups))
    throw new NetworkOptionError('site rule: the rule has no group named site; mark the site id with (?<site>…), e.g. ^ERBS_(?<site>\\d+)');
  const nested = nestedRepetition(source);
  if (nested !== null) {
    throw new NetworkOptionError(
      `site rule: "${nested}" repeats a repetition, which can take exponential time on some names; repeat only the inner part, or write it out (e.g. (?:[A-Z]+_)? twice instead of (?:[A-Z]+_)*)`,
    );
  }
  return {
    source,
    match(name: string): string | null {
      const site = regex.exec(name)?.groups?.site;
      return site === undefined || site === '' ? null : site;
    },
  };
}

export const DEFAULT_SITE_RULE: SiteRule = compileSiteRule(DEFAULT_SITE_RULE_SOURCE);

/** The site id of a name by a rule; a name the rule does not match is its own site id. */
export function siteIdBy(rule: SiteRule, name: string): { siteId: string; matched: boolean } {
  const trimmed = name.trim();
  const site = rule.match(trimmed);
  return site === null ? { siteId: trimmed, matched: false } : { siteId: site, matched: true };
}

/** The default rule as a function: `ERBS_41428_KAINARFARM_K` → `41428`, `NR_LX0001_A` → `LX0001`, `ALFAMA_G` → `ALFAMA`, `KFAR_SABA` → `KFAR_SABA`. */
export function defaultSiteId(name: string): string {
  return siteIdBy(DEFAULT_SITE_RULE, name).siteId;
}

/**
 * The first group that is repeated without bound (`*`, `+`, `{n,}`, `{n,m}`) while containing such a
 * repetition itself, as written; null when there is none. A syntactic check, deliberately
 * conservative: it reads escapes and character classes but not what the group matches.
 */
function nestedRepetition(source: string): string | null {
  // Per open group: where it starts and whether it holds a repetition.
  const open: Array<{ start: number; repeats: boolean }> = [{ start: 0, repeats: false }];
  const repetitionAt = (i: number): number => {
    const c = source[i];
    if (c === '*' || c === '+') return 1;
    if (c === '{') {
      const m = /^\{\d*,\d*\}/.exec(source.slice(i));
      if (m) return m[0].length;
    }
    return 0;
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
    } else if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
    } else if (c === '(') {
      open.push({ start: i, repeats: false });
    } else if (c === ')' && open.length > 1) {
      const group = open.pop() as { start: number; repeats: boolean };
      const after = repetitionAt(i + 1);
      if (group.repeats && after > 0) return source.slice(group.start, i + 1 + after);
      if (group.repeats || after > 0) (open[open.length - 1] as { repeats: boolean }).repeats = true;
    } else if (repetitionAt(i) > 0) {
      (open[open.length - 1] as { repeats: boolean }).repeats = true;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------
// What an import tells about its rule

/** How many names the site rule did not match (each became its own site id), with the first few of them. */
export interface UnmatchedNames {
  count: number;
  examples: string[];
}

/** Names kept as examples of names the site rule did not match: enough to recognise the pattern. */
export const UNMATCHED_EXAMPLES = 5;

/** How the nodes of an import fell on sites: what makes a wrong rule visible at once. */
export interface SiteSummary {
  /** The rule used, as written. */
  rule: string;
  /** Sites stored. */
  total: number;
  /** Nodes placed on a site (controllers have none). */
  nodesOnSites: number;
  /** The sites with the most nodes, most first. */
  largest: Array<{ siteId: string; nodes: number }>;
  unmatched: UnmatchedNames;
}

/**
 * A multi-technology site has one node per technology and maybe a second of one: beyond this many, a
 * site is more likely a type prefix or region code the rule took for a site id.
 */
export const MAX_NODES_PER_SITE = 12;

/** Below this many nodes, one site holding most of them is an ordinary small dump, not a symptom. */
const SMALL_DUMP_NODES = 10;

/** Sentences for the user when the summary looks like a wrong rule; none when it looks right. */
export function siteWarnings(summary: SiteSummary): string[] {
  const warnings: string[] = [];
  const top = summary.largest[0];
  const n = summary.nodesOnSites;
  if (top && (top.nodes > MAX_NODES_PER_SITE || (n >= SMALL_DUMP_NODES && top.nodes * 2 > n))) {
    warnings.push(`Site ${top.siteId} got ${top.nodes} of the ${n} nodes: check that the site rule finds the site in these node names.`);
  }
  const { count, examples } = summary.unmatched;
  if (count > 0) {
    const shown = examples.join(', ') + (count > examples.length ? ', …' : '');
    warnings.push(`${count} ${count === 1 ? 'name' : 'names'} did not match the site rule and became site ids whole (${shown}).`);
  }
  return warnings;
}
