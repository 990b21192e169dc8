import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type { Config } from './config';

export type MailMessage = Mail.Options;

export interface Mailer {
  /** `response`: the receiving server's answer to DATA (e.g. `250 Ok: queued as <id>`), when there was one. */
  send(message: MailMessage): Promise<{ messageId: string; accepted: boolean; response?: string }>;
  close(): void;
}

/**
 * SMTP when SMTP_URL is set; otherwise each message is written as an `.eml` file under `<dataDir>/mail/`.
 */
export function createMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'dataDir'>): Mailer {
  if (config.SMTP_URL) {
    const transport = nodemailer.createTransport(config.SMTP_URL);
    return {
      async send(message) {
        const info = await transport.sendMail({ from: config.MAIL_FROM, ...message });
        return { messageId: info.messageId, accepted: info.accepted.length > 0, response: String(info.response ?? '') };
      },
      close: () => transport.close(),
    };
  }
  const dir = path.join(config.dataDir, 'mail');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: config.MAIL_FROM, ...message });
      fs.mkdirSync(dir, { recursive: true });
      const id = String(info.messageId).replace(/[^A-Za-z0-9@._-]/g, '');
      fs.writeFileSync(path.join(dir, `${Date.now()}-${id}.eml`), info.message as Buffer);
      return { messageId: info.messageId, accepted: true };
    },
    close: () => transport.close(),
  };
}
