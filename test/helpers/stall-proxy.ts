import net, { type AddressInfo } from 'node:net';

export interface StallProxy {
  /** host:port of the proxy. */
  address: string;
  port: number;
  /** Stop forwarding: bytes already in flight and new connections wait (as with a frozen process or a partition). */
  stall(): void;
  /** Forward again, what waited included. */
  resume(): void;
  /** Connections accepted so far (a way to see that a client tried, without a clock). */
  accepted(): number;
  close(): Promise<void>;
}

/**
 * A TCP proxy to `target` that can stop forwarding without closing anything: the stalled side
 * sees no error, only silence, like a dependency frozen with SIGSTOP. Sockets are paused, so
 * what the client sends stays in the kernel's buffers until `resume()`.
 */
export async function startStallProxy(target: { host: string; port: number }): Promise<StallProxy> {
  let stalled = false;
  let accepted = 0;
  const pairs = new Set<[net.Socket, net.Socket | undefined]>();
  const waiting: Array<() => void> = [];

  const link = (client: net.Socket, pair: [net.Socket, net.Socket | undefined]) => {
    const upstream = net.connect(target.port, target.host);
    pair[1] = upstream;
    // Plain data handlers, not pipe(): pipe() resumes a source on 'drain', which would undo a stall.
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    if (stalled) pause(pair);
  };
  const pause = ([a, b]: [net.Socket, net.Socket | undefined]) => {
    a.pause();
    b?.pause();
  };

  const server = net.createServer((client) => {
    accepted++;
    const pair: [net.Socket, net.Socket | undefined] = [client, undefined];
    pairs.add(pair);
    if (stalled) {
      client.pause();
      waiting.push(() => link(client, pair));
    } else {
      link(client, pair);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    address: `127.0.0.1:${port}`,
    port,
    stall() {
      stalled = true;
      for (const pair of pairs) pause(pair);
    },
    resume() {
      stalled = false;
      for (const start of waiting.splice(0)) start();
      for (const [a, b] of pairs) {
        a.resume();
        b?.resume();
      }
    },
    accepted: () => accepted,
    async close() {
      for (const [a, b] of pairs) {
        a.destroy();
        b?.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
