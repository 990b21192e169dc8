import { startGoogleStandin, type GoogleStandin } from '../helpers/google-standin';
import type { ApiWorld } from '../helpers/world';
import { connectVia, useProviderWorld, waitForSync, type ProviderWorld } from './provider-support';

/** A suite's Google Calendar world (provider-support.ts) with the stand-in of Google (test/helpers/google-standin.ts). */
export const CLIENT = { clientId: 'gcal-client-id', clientSecret: 'gcal-client-secret' };
export type GoogleWorld = ProviderWorld<GoogleStandin>;

export const useGoogleWorld = (): GoogleWorld => useProviderWorld(() => startGoogleStandin(CLIENT));

/** The host's browser: the dashboard asks for Google's page, Google sends it back to the callback. */
export const connectGoogle = (w: ApiWorld, loginAs: string, opts: { grantScopes?: string } = {}) => connectVia(w, 'google', loginAs, opts);

export { rrSlots } from './provider-support';
export const waitForGoogleSync = waitForSync;
