import type { TokenResponse } from 'contracts';
import { bodyMessage, storeToken, takeRedirect } from 'shared-auth/handoff';

/**
 * The signed-out pages' calls: fetch instead of shared-auth's API client (which brings zustand, the
 * session hooks and the loading counter along), with the same error texts (specification §8, shared-auth's errorMessage).
 */
export class CallError extends Error {}

async function messageOf(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  let data: unknown = text;
  try {
    data = JSON.parse(text);
  } catch {
    /* not JSON: the text itself is the message */
  }
  return bodyMessage(data);
}

/** POSTs JSON to `/api/<path>`; a refusal throws its message, an unreachable server 'Network error!'. */
export async function postJson<T>(path: string, body: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    throw new CallError('Network error!');
  }
  if (!response.ok) throw new CallError(await messageOf(response));
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The one way the browser leaves the signed-out pages: a full load, so the console starts from scratch. */
export const browser = {
  // replace, as the router's redirect after sign-in did: Back from the console does not return to the form.
  load(path: string): void {
    window.location.replace(path);
  },
};

/**
 * Hands a token the server just issued to the console: stored where shared-auth reads it, then a full
 * load of `target` (the console loads the user itself on start). The login page goes where the guard
 * remembered (takeRedirect); the mailed-link pages always to /home, as before.
 */
export async function signInWith(call: Promise<TokenResponse>, target: () => string): Promise<void> {
  const { token } = await call;
  storeToken(token);
  browser.load(target());
}

export { takeRedirect };
