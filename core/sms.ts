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
 * message is written as a JSON file under `<dataDir>/sms/`, except in production: there every
 * send fails as Twilio would answer a request without credentials (401, a permanent failure, so
 * the send is recorded `failed` with the reason). The start-up check (services/sequences/sms-readiness.ts)
 * refuses to start when SMS steps exist; this covers steps created after the start.
 */
export function createSmsSender(
  config: Pick<Config, 'TWILIO_ACCOUNT_SID' | 'TWILIO_AUTH_TOKEN' | 'TWILIO_API_BASE_URL' | 'dataDir'> & Partial<Pick<Config, 'NODE_ENV'>>,
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
  if (config.NODE_ENV === 'production') {
    const missing = (['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'] as const).filter((k) => !config[k]).join(' and ');
    return {
      async send() {
        throw Object.assign(new Error(`SMS not sent: ${missing} not set (NODE_ENV=production never writes SMS to files)`), { status: 401 });
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
