import type { Browser } from 'playwright-core';
import { useApiWorld, type ApiWorld } from '../helpers/world';
import { launchBrowser } from './browser';
import { startHostSite, type HostSite } from './host';

/** Everything an embed browser suite needs, filled in by its beforeAll. */
export interface EmbedWorld extends ApiWorld {
  /** The host page on another origin. */
  host: HostSite;
  /** Launched in beforeAll; the suites declare their tests with itWithBrowser (skipped without Chromium). */
  browser: Browser;
}

/** A database, the app, a team, the cross-origin host site and Chromium for one suite; all torn down after it. */
export function useEmbedWorld(): EmbedWorld {
  const w = useApiWorld<EmbedWorld>();
  beforeAll(async () => {
    w.host = await startHostSite(w.app.baseUrl);
    w.browser = await launchBrowser();
  });
  afterAll(async () => {
    await w.browser?.close();
    await w.host?.close();
  });
  return w;
}

/** A published form with an email field and `extra` fields, through the API. */
export async function makeForm(
  w: EmbedWorld,
  slug: string,
  settings: Record<string, unknown> = {},
  extra: Array<Record<string, unknown>> = [],
): Promise<{ id: string }> {
  const res = await w.api.post('/api/v1/forms', {
    title: `Form ${slug}`,
    slug,
    status: 'published',
    settings,
    fields: [{ type: 'email', label: 'Email', name: 'email', required: true }, ...extra],
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string };
}
