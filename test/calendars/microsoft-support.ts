import { startMicrosoftStandin, type MicrosoftStandin } from '../helpers/microsoft-standin';
import type { ApiWorld } from '../helpers/world';
import { connectVia, useProviderWorld, type ProviderWorld } from './provider-support';

/** A suite's Microsoft 365 world (provider-support.ts) with the stand-in of Microsoft (test/helpers/microsoft-standin.ts). */
export const MS_CLIENT = { clientId: 'ms-client-id', clientSecret: 'ms-client-secret' };
export type MicrosoftWorld = ProviderWorld<MicrosoftStandin>;
export const useMicrosoftWorld = (): MicrosoftWorld => useProviderWorld(() => startMicrosoftStandin(MS_CLIENT));
export const connectMicrosoft = (w: ApiWorld, loginAs: string, opts: { grantScopes?: string } = {}) =>
  connectVia(w, 'microsoft', loginAs, opts);
/** A notification batch as Graph posts it. */
export const hookPost = (w: ApiWorld, value: unknown[], path = '/api/hooks/microsoft-calendar') =>
  fetch(`${w.app.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ value }) });
