import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../core/config';
import { ConfigError } from '../../core/config';
import { generateKey, SecretBox } from '../../core/secret-box';
import type { ServiceDeps } from '../deps';

/** The decrypted credentials of a connection. A feed's URL is a secret too (it grants read access). */
export type CalendarCredentials = { kind: 'caldav'; url: string; username: string; password: string } | { kind: 'ics_feed'; url: string };

const boxes = new Map<string, SecretBox>();

/**
 * The box for calendar credentials: `CALENDAR_CREDENTIALS_KEY`, or, outside production, a key
 * generated once under the data directory (`.data/calendar-credentials.key`), which the API and
 * the worker of `npm run dev` share. Production without the variable is a configuration error.
 */
export function calendarSecretBox(config: Pick<Config, 'CALENDAR_CREDENTIALS_KEY' | 'NODE_ENV' | 'dataDir'>): SecretBox {
  const cacheKey = config.CALENDAR_CREDENTIALS_KEY ?? `file:${config.dataDir}`;
  const hit = boxes.get(cacheKey);
  if (hit) return hit;
  let key = config.CALENDAR_CREDENTIALS_KEY;
  if (!key) {
    if (config.NODE_ENV === 'production') {
      throw new ConfigError('Invalid configuration:\n  CALENDAR_CREDENTIALS_KEY: required in production (base64 of 32 bytes)');
    }
    key = readOrCreateKeyFile(path.join(config.dataDir, 'calendar-credentials.key'));
  }
  const box = new SecretBox(key);
  boxes.set(cacheKey, box);
  return box;
}

/** A key kept in a file under the data directory, created once (mode 600) when missing. */
export function readOrCreateKeyFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      // 'wx': two processes racing to create it keep the first one's key.
      fs.writeFileSync(file, generateKey() + '\n', { flag: 'wx', mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    return fs.readFileSync(file, 'utf8').trim();
  }
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
