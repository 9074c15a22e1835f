/** V8 cuts a substring of this many characters or more as a view of its whole text. */
export const SLICED_FROM = 13;

/**
 * `text` as a string of its own. V8 cuts a substring of {@link SLICED_FROM} characters or more as a view
 * of the text it came from, so a short value kept past its parse (a cache key, a kept row's MO name)
 * keeps that whole text alive: a log of 100 KB, a 64 KB chunk of a dump. Gluing a character on and
 * cutting it off again makes V8 copy the characters instead.
 */
export function detachedString(text: string): string {
  return text.length >= SLICED_FROM ? `${text} `.slice(0, -1) : text;
}
