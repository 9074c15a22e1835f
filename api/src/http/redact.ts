/**
 * Query parameters whose values are secrets: the session token (hub, job dashboard, downloads opened in
 * a new tab) and the one-time token of a mailed link (the console page it opens is served, and logged,
 * by this server too).
 */
const SECRET_PARAMETERS = new Set(['access_token', 'token']);

function decodedName(raw: string): string {
  const spaced = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced).trim().toLowerCase();
  } catch {
    // A name that does not decode is compared as sent; it cannot be a secret's name the server reads either.
    return spaced.trim().toLowerCase();
  }
}

/**
 * The request URL as it may be logged. Names are compared the way the server reads them (percent-decoded,
 * any case), so `?%61ccess_token=` is redacted like `?access_token=`.
 */
export function loggableUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return url;
  const hashAt = url.indexOf('#', queryAt);
  const query = url.slice(queryAt + 1, hashAt < 0 ? undefined : hashAt);
  const redacted = query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return SECRET_PARAMETERS.has(decodedName(name)) ? `${name}=[Redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, queryAt + 1)}${redacted}${hashAt < 0 ? '' : url.slice(hashAt)}`;
}
