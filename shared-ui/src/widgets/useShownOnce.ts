import { useState } from 'react';

/**
 * True from the first render where `shown` was true on: a drawer loaded on demand stays mounted once it
 * has been opened, so it closes with its animation and opens again at once.
 */
export function useShownOnce(shown: boolean): boolean {
  const [once, setOnce] = useState(shown);
  if (shown && !once) setOnce(true);
  return once || shown;
}
