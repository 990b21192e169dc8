import nodemailer from 'nodemailer';
import { createInboundListener } from '../../inbound/smtp-listener';
import type { World } from '../sequences/support/world';

/**
 * The inbound SMTP listener on a free local port for a suite's world, started before its tests and
 * closed after them; answers `deliver`, which sends raw bytes to it over real SMTP (nodemailer).
 */
export function useInboundListener(w: World): (raw: string, envelope: { from: string; to: string[] }) => Promise<unknown> {
  let listener: ReturnType<typeof createInboundListener> | undefined;
  let port = 0;
  beforeAll(async () => {
    listener = createInboundListener({ db: w.tdb.db, outbox: w.app.deps.outbox, config: w.app.config });
    port = await listener.listen(0, '127.0.0.1');
  });
  afterAll(async () => listener?.close());
  return (raw, envelope) =>
    nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true }).sendMail({ raw, envelope });
}
