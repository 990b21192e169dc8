import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import twilio from 'twilio';
import type { Config } from './config';

type RequestOptions<T> = import('twilio/lib/base/RequestClient').RequestOptions<T>;

export interface SmsMessage {
  from: string;
  to: string;
  body: string;
  /** Our status-callback URL for delivery reports. */
  statusCallback?: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<{ sid: string }>;
}

/**
 * twilio 6 has no base-URL option; `edge`/`region` only rewrite the `*.twilio.com` host. A
 * custom `httpClient` (a RequestClient subclass) that swaps the origin of every request is the
 * supported hook, so TWILIO_API_BASE_URL (a local stand-in in tests) receives the same REST calls.
 */
class RebasedRequestClient extends twilio.RequestClient {
  constructor(private readonly base: URL) {
    super();
  }

  override request<TData>(opts: RequestOptions<TData>) {
    const u = new URL(opts.uri);
    const rebased = new URL(u.pathname + u.search, this.base);
    return super.request<TData>({ ...opts, uri: rebased.toString() });
  }
}

/**
 * Twilio (the twilio SDK) when TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are set; otherwise each
 * message is written as a JSON file under `<dataDir>/sms/`.
 */
export function createSmsSender(
  config: Pick<Config, 'TWILIO_ACCOUNT_SID' | 'TWILIO_AUTH_TOKEN' | 'TWILIO_API_BASE_URL' | 'dataDir'>,
): SmsSender {
  if (config.TWILIO_ACCOUNT_SID && config.TWILIO_AUTH_TOKEN) {
    const client = twilio(config.TWILIO_ACCOUNT_SID, config.TWILIO_AUTH_TOKEN, {
      ...(config.TWILIO_API_BASE_URL ? { httpClient: new RebasedRequestClient(new URL(config.TWILIO_API_BASE_URL)) } : {}),
    });
    return {
      async send(m) {
        const msg = await client.messages.create({
          from: m.from,
          to: m.to,
          body: m.body,
          ...(m.statusCallback ? { statusCallback: m.statusCallback } : {}),
        });
        return { sid: msg.sid };
      },
    };
  }
  const dir = path.join(config.dataDir, 'sms');
  return {
    async send(m) {
      const sid = `SMfile${randomUUID().replace(/-/g, '')}`;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, `${Date.now()}-${sid}.json`),
        JSON.stringify({ sid, ...m, created_at: new Date().toISOString() }, null, 2),
      );
      return { sid };
    },
  };
}
