/**
 * TCP port helpers for the dev tooling (embedded PostgreSQL, `npm run dev`, the benchmarks):
 * one implementation for all three. Local addresses only.
 */
import net from 'node:net';

export const LOCAL_HOST = '127.0.0.1';

/** Listen once on `port` (0: any) and close again: the port that was bound, or null when it is taken. */
export function listenOnce(port: number, host = LOCAL_HOST): Promise<number | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(null));
    server.listen({ host, port, exclusive: true }, () => {
      const addr = server.address();
      const got = typeof addr === 'object' && addr ? addr.port : null;
      server.close(() => resolve(got));
    });
  });
}

/** Whether nothing listens on `port` (of `host`) right now. */
export async function portFree(port: number, host = LOCAL_HOST): Promise<boolean> {
  return (await listenOnce(port, host)) !== null;
}

/** A port the system reports free on 127.0.0.1 (another process may still take it before you do). */
export async function freePort(): Promise<number> {
  const p = await listenOnce(0, LOCAL_HOST);
  if (!p) throw new Error(`could not find a free TCP port on ${LOCAL_HOST}`);
  return p;
}

/** The first free port among the candidates, else a random free one; never one of `avoid`. */
export async function pickPort(candidates: Array<number | undefined>, avoid: number[] = []): Promise<number> {
  for (const p of candidates) {
    if (p && !avoid.includes(p) && (await portFree(p))) return p;
  }
  for (;;) {
    const p = await freePort();
    if (!avoid.includes(p)) return p;
  }
}

/** Whether something accepts TCP connections on `port` (1 s connect timeout). */
export function portAccepts(port: number, host = LOCAL_HOST): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
