import fs from 'node:fs';
import { useApiWorld, type ApiWorld } from '../helpers/world';
import { ARTIFACTS } from './browser';
import { startHostSite, type HostSite } from './host';

/** Everything an embed browser suite needs, filled in by its beforeAll. */
export interface EmbedWorld extends ApiWorld {
  /** The host page on another origin. */
  host: HostSite;
}

/** A database, the app, a team, the cross-origin host site and Chromium for one suite; all torn down after it. */
export function useEmbedWorld(): EmbedWorld {
  // Chromium in `w.browser`; the suites declare their tests with itWithBrowser (skipped without it).
  const w = useApiWorld<EmbedWorld>({ browser: true });
  beforeAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    w.host = await startHostSite(w.app.baseUrl);
    w.onTeardown(() => w.host.close());
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
