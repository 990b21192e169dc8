import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import nodemailer from 'nodemailer';
import { freePort } from '../../core/ports';
import { spawnEntry } from '../helpers/entry-process';
import { useApiWorld } from '../helpers/world';

/**
 * bin/inbound.ts in its own process under abuse, with a real SMTP client (raw sockets): a 100 MB
 * DATA, 200 silent connections, while real mail is still accepted. Memory is the child's RSS.
 */
const MAX_BYTES = 1024 * 1024;
const IDLE_MS = 1500;
const PER_IP = 10;
const TOTAL = 100;
const TO = 'bounce+0123456789abcdef0123456789abcdef@bounces.test';
let child: ChildProcess | undefined;
let port = 0;

const world = useApiWorld({ app: false, team: false });
world.onTeardown(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
});

beforeAll(async () => {
  port = await freePort();
  const started = spawnEntry('bin/inbound.ts', {
    readyLine: 'inbound SMTP listening',
    env: {
      DATABASE_URL: world.tdb.url,
      OUTBOX_STARTS_FROM: 'worker', // the outbox row is only NOTIFYed: no Temporal needed here
      MAIL_BOUNCE_DOMAIN: 'bounces.test',
      MAIL_REPLY_DOMAIN: 'reply.test',
      INBOUND_SMTP_HOST: '127.0.0.1',
      INBOUND_SMTP_PORT: String(port),
      INBOUND_MAX_BYTES: String(MAX_BYTES),
      INBOUND_MAX_CONNECTIONS_PER_IP: String(PER_IP),
      INBOUND_MAX_CONNECTIONS: String(TOTAL),
      INBOUND_IDLE_TIMEOUT_MS: String(IDLE_MS),
    },
  });
  child = started.child;
  await started.ready;
}, 60_000);

/** The child's resident memory in bytes (Linux /proc). */
function rss(): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child!.pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/** A raw SMTP session: each `command` resolves with the server's complete reply. */
function smtp(localAddress = '127.0.0.1') {
  const socket = net.connect({ host: '127.0.0.1', port, localAddress });
  let buf = '';
  let waiting: ((reply: string) => void) | null = null;
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  socket.on('error', () => undefined); // a refused or cut connection is what some tests expect
  socket.on('data', (d) => {
    buf += d.toString('latin1');
    const m = /(^|\r\n)(\d{3}) [^\r\n]*\r\n$/.exec(buf);
    if (m && waiting) {
      const w = waiting;
      waiting = null;
      const reply = buf;
      buf = '';
      w(reply);
    }
  });
  const next = () => new Promise<string>((r) => (waiting = r));
  return {
    socket,
    closed,
    greeting: next(),
    command(line: string) {
      const reply = next();
      socket.write(`${line}\r\n`);
      return reply;
    },
    next,
  };
}

const realMessage = (subject: string) =>
  nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true }).sendMail({
    envelope: { from: '', to: [TO] },
    raw: `From: MAILER-DAEMON@mx.example.org\r\nTo: ${TO}\r\nSubject: ${subject}\r\n\r\nThis is a permanent error.\r\n`,
  });

test('EHLO announces SIZE (RFC 1870); a larger MAIL FROM … SIZE= is refused before any data', async () => {
  const s = smtp();
  expect(await s.greeting).toMatch(/^220 /);
  expect(await s.command('EHLO client.test')).toMatch(new RegExp(`^250[ -]SIZE ${MAX_BYTES}\r$`, 'm'));
  expect(await s.command('MAIL FROM:<> SIZE=104857600')).toMatch(/^552 /m);
  await s.command('QUIT');
});

test('a 400 MB DATA is refused with 552 and the listener grows by less than half of it', async () => {
  await realMessage('warm-up');
  const idle = Math.max(rss(), rss());
  const s = smtp();
  await s.greeting;
  await s.command('EHLO client.test');
  expect(await s.command('MAIL FROM:<>')).toMatch(/^250 /);
  expect(await s.command(`RCPT TO:<${TO}>`)).toMatch(/^250 /);
  expect(await s.command('DATA')).toMatch(/^354 /);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rss())), 20);
  const line = Buffer.from(`${'x'.repeat(1022)}\r\n`);
  const chunk = Buffer.concat(Array.from({ length: 64 }, () => line)); // 64 KiB
  // 400 MB: Node 24's V8 lets 64-110 MB of released Buffer memory build up before it collects (seen
  // here: 77 MB and 110 MB for 200 MB; Node 20 about half that), so the bound is half the message: a
  // listener that kept it would grow by all of it, one that streams by the collector's slack only.
  const total = 400 * 1024 * 1024;
  for (let sent = 0; sent < total; sent += chunk.length) {
    if (!s.socket.write(chunk)) await new Promise((r) => s.socket.once('drain', r));
  }
  const reply = s.next();
  s.socket.write('\r\n.\r\n');
  expect(await reply).toMatch(/^552 /);
  clearInterval(sampler);
  peak = Math.max(peak, rss());
  process.stdout.write(`listener RSS: idle ${(idle / 2 ** 20).toFixed(1)} MB, peak during 400 MB DATA ${(peak / 2 ** 20).toFixed(1)} MB\n`);
  expect(peak - idle).toBeLessThan(total / 2);
  const stored = await world.tdb.db('inbound_emails').where('size', '>', MAX_BYTES).count<{ count: string }[]>('* as count');
  expect(Number(stored[0].count)).toBe(0);
  await s.command('QUIT');
}, 120_000);

test('200 silent connections are refused past the caps or cut off when idle; real mail is accepted meanwhile', async () => {
  // 50 connections from each of 127.0.0.2–5: 10 per address are let in, the rest refused (421).
  const silent = Array.from({ length: 200 }, (_, i) => smtp(`127.0.0.${2 + (i % 4)}`));
  const greetings = await Promise.all(silent.map((s) => s.greeting));
  expect(greetings.filter((g) => g.startsWith('421')).length).toBe(200 - 4 * PER_IP);
  expect(greetings.filter((g) => g.startsWith('220')).length).toBe(4 * PER_IP);

  const info = await realMessage('accepted while 40 connections idle');
  expect(info.response).toMatch(/^250 /);
  const stored = await world.tdb.db('inbound_emails').where({ remote_ip: '127.0.0.1' }).count<{ count: string }[]>('* as count');
  expect(Number(stored[0].count)).toBeGreaterThan(0);

  // Every one of them is closed by the server: the refused at once, the silent after IDLE_MS.
  const started = Date.now();
  await Promise.all(silent.map((s) => s.closed));
  expect(Date.now() - started).toBeLessThan(IDLE_MS + 5000);
}, 60_000);

test('past the overall cap a new connection is refused, from any address', async () => {
  // 10 per address from 12 addresses: 120 wanted, 100 let in.
  const held = Array.from({ length: 12 * PER_IP }, (_, i) => smtp(`127.0.1.${1 + (i % 12)}`));
  const greetings = await Promise.all(held.map((s) => s.greeting));
  const refused = greetings.filter((g) => g.startsWith('421'));
  expect(greetings.filter((g) => g.startsWith('220')).length).toBe(TOTAL);
  expect(refused.length).toBe(12 * PER_IP - TOTAL);
  expect(refused.every((g) => /Too many connections, try again later/.test(g))).toBe(true);
  await Promise.all(held.map((s) => s.closed));
}, 60_000);
