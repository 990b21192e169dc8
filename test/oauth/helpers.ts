import type { Db } from '../../db/knex';
import { createApp, LIVE_FIELDS, type AppInput } from '../../services/oauth/apps';

/** A real 512x512 PNG header (IHDR) followed by a minimal body: enough for the checklist. */
export function pngDataUrl(width = 512, height = 512): string {
  const buf = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(buf, 0);
  buf.writeUInt32BE(13, 8);
  buf.write('IHDR', 12, 'ascii');
  buf.writeUInt32BE(width, 16);
  buf.writeUInt32BE(height, 20);
  buf.writeUInt8(8, 24);
  buf.writeUInt8(6, 25);
  return `data:image/png;base64,${buf.toString('base64')}`;
}

export function completeAppInput(overrides: Partial<AppInput> = {}): AppInput {
  return {
    name: 'Acme Sync',
    description: 'Syncs your form submissions to Acme CRM.',
    short_description: 'Form answers into Acme CRM',
    website_url: 'https://acme.example.com',
    privacy_policy_url: 'https://acme.example.com/privacy',
    terms_url: 'https://acme.example.com/terms',
    category: 'CRM',
    redirect_uris: ['https://acme.example.com/callback'],
    scopes: ['forms:read', 'contacts:read', 'user:read'],
    screenshots: ['https://acme.example.com/s1.png', 'https://acme.example.com/s2.png'],
    icon: pngDataUrl(),
    ...overrides,
  };
}

/** Insert an app directly through the service. */
export async function insertApp(db: Db, teamId: string, userId: string, overrides: Partial<AppInput> = {}) {
  return createApp({ db }, { teamId, userId, values: completeAppInput(overrides) });
}

/** Mark an app approved and listed (its current settings become the live version). */
export async function approveDirectly(db: Db, appId: string): Promise<void> {
  const a = await db('apps').where({ id: appId }).first();
  const live = Object.fromEntries(LIVE_FIELDS.map((c) => [c, a![c]]));
  await db('apps')
    .where({ id: appId })
    .update({ live: JSON.stringify(live), status: 'approved', review_stage: 'approved', approved_at: db.fn.now() });
}
