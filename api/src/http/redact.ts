/**
 * Query parameters whose values are secrets: the session token (hub, job dashboard, downloads opened in
 * a new tab) and the one-time token of a mailed link (the console page it opens is served, and logged,
 * by this server too).
 */
const SECRET_PARAMETERS = new Set(['access_token', 'token']);

/** Percent-decoding is repeated this often, so a name encoded twice (`%2561ccess_token`) is still recognised. */
const DECODE_ROUNDS = 3;

/**
 * A parameter's name as any query parser could read it: `+` as a space, percent-decoded (again while that
 * changes it), any case, blanks trimmed, and without the bracket suffix of the array and object forms
 * (`access_token[]`, `access_token[0]`, `access_token%5B%5D`) that qs-style parsers fold into the name.
 */
function readableName(raw: string): string {
  let name = raw.replace(/\+/g, ' ');
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // A name that does not decode is compared as it stands; no parser reads it as a secret's name either.
      break;
    }
    if (decoded === name) break;
    name = decoded;
  }
  const bracket = name.indexOf('[');
  return (bracket < 0 ? name : name.slice(0, bracket)).trim().toLowerCase();
}

function redactedPair(pair: string): string {
  const equals = pair.indexOf('=');
  const name = equals < 0 ? pair : pair.slice(0, equals);
  return SECRET_PARAMETERS.has(readableName(name)) ? `${name}=[Redacted]` : pair;
}

/**
 * The request URL as it may be logged. Names are compared the way any server reads them (see
 * readableName), every occurrence is redacted, and `;` separates pairs too (some parsers split on it),
 * so no spelling of `access_token` leaves its value in a log line.
 */
export function loggableUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return url;
  const hashAt = url.indexOf('#', queryAt);
  const query = url.slice(queryAt + 1, hashAt < 0 ? undefined : hashAt);
  const redacted = query
    .split('&')
    .map((pair) => pair.split(';').map(redactedPair).join(';'))
    .join('&');
  return `${url.slice(0, queryAt + 1)}${redacted}${hashAt < 0 ? '' : url.slice(hashAt)}`;
}
