import type { Config } from '../../core/config';
import { atRestBox, type SecretBox } from '../../core/secret-box';
import type { ServiceDeps } from '../deps';

/** The decrypted credentials of a connection. A feed's URL is a secret too (it grants read access). */
export type CalendarCredentials =
  | { kind: 'caldav'; url: string; username: string; password: string }
  | { kind: 'ics_feed'; url: string }
  /** Google (services/calendars/google-tokens.ts): the OAuth tokens. */
  | { kind: 'google'; refreshToken: string; accessToken: string; accessExpiresAt: number }
  /** Microsoft (services/calendars/microsoft-tokens.ts): the OAuth tokens, the refresh token rotated at every refresh. */
  | { kind: 'microsoft'; refreshToken: string; accessToken: string; accessExpiresAt: number };

/** The box for calendar credentials: the at-rest box (core/secret-box.ts `atRestBox`). */
export function calendarSecretBox(config: Pick<Config, 'CALENDAR_CREDENTIALS_KEY' | 'NODE_ENV' | 'dataDir'>): SecretBox {
  return atRestBox(config);
}

/** Seal credentials for a connection row; the connection id is bound as associated data. */
export function sealCredentials(box: SecretBox, connectionId: string, creds: CalendarCredentials): string {
  return box.seal(JSON.stringify(creds), connectionId);
}

export function openCredentials(box: SecretBox, connectionId: string, sealed: string): CalendarCredentials {
  return JSON.parse(box.open(sealed, connectionId)) as CalendarCredentials;
}

/** Load and decrypt one connection's credentials (activities only: never put them in a workflow's history). */
export async function loadCredentials(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  input: { connectionId: string },
): Promise<CalendarCredentials | null> {
  const { db, config } = deps;
  const { connectionId } = input;
  const row = await db('calendar_connections').where({ id: connectionId }).first('credentials_enc');
  if (!row) return null;
  return openCredentials(calendarSecretBox(config), connectionId, row.credentials_enc as string);
}
