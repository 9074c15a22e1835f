import type { HubClientOptions } from 'shared-auth/hubClient';

/**
 * Stands in for shared-auth's hub client in component tests: each start succeeds and is recorded, and
 * `fire` calls a server-to-client method on the latest connection as a hub message would.
 * Use with `jest.mock('shared-auth/hubClient', () => jest.requireActual('../testing/fakeHub').fakeHubClient)`.
 */
export const starts: HubClientOptions[] = [];

export const fakeHubClient = {
  startHubClient: jest.fn((options: HubClientOptions) => {
    starts.push(options);
    return Promise.resolve({ stop: jest.fn() });
  }),
};

export function hubHandler(target: string): ((...args: unknown[]) => void) | undefined {
  return starts.at(-1)?.handlers[target];
}

/** Between tests: the next test's handlers are its own hub's, not a previous (unmounted) one's. */
export function forgetHubStarts(): void {
  starts.length = 0;
  fakeHubClient.startHubClient.mockClear();
}
