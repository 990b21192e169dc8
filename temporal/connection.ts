import fs from 'node:fs';
import { Client, Connection, type ConnectionOptions } from '@temporalio/client';
import type { Config } from '../core/config';

/** Connection options from config: plain for the dev server, TLS and/or API key for a cluster or Temporal Cloud. */
export function connectionOptions(c: Config): ConnectionOptions {
  const tls =
    c.TEMPORAL_TLS_CERT_PATH && c.TEMPORAL_TLS_KEY_PATH
      ? { clientCertPair: { crt: fs.readFileSync(c.TEMPORAL_TLS_CERT_PATH), key: fs.readFileSync(c.TEMPORAL_TLS_KEY_PATH) } }
      : c.TEMPORAL_TLS || c.TEMPORAL_API_KEY
        ? true
        : undefined;
  return { address: c.TEMPORAL_ADDRESS, tls, apiKey: c.TEMPORAL_API_KEY, connectTimeout: '5s' };
}

export async function connectClient(c: Config): Promise<Client> {
  const connection = await Connection.connect(connectionOptions(c));
  return new Client({ connection, namespace: c.TEMPORAL_NAMESPACE });
}
