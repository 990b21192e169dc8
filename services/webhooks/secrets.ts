import type { Config } from '../../core/config';
import { atRestBox, rowAad } from '../../core/secret-box';

/**
 * Webhook signing secrets must stay recoverable to sign, so they are sealed at rest like calendar
 * credentials (AES-256-GCM under the at-rest key, bound to the subscription's id and column:
 * docs/webhooks.md "Signing secrets at rest"). Opened only in the activity that signs.
 */
export type SecretKeyConfig = Pick<Config, 'CALENDAR_CREDENTIALS_KEY' | 'NODE_ENV' | 'dataDir'>;

const aad = (id: string, which: 'current' | 'previous') =>
  rowAad(which === 'current' ? 'webhook_subscriptions' : 'webhook_subscriptions.previous', id);

export function sealWebhookSecret(config: SecretKeyConfig, input: { id: string; secret: string; which: 'current' | 'previous' }): string {
  return atRestBox(config).seal(input.secret, aad(input.id, input.which));
}

export function openWebhookSecret(config: SecretKeyConfig, input: { id: string; sealed: string; which: 'current' | 'previous' }): string {
  return atRestBox(config).open(input.sealed, aad(input.id, input.which));
}
