import http from 'node:http';
import https from 'node:https';
import { pinnedLookup } from './pin';
import type { OutboundPolicy } from './policy';
import type { ResolvedTarget } from './resolve';

export const RESPONSE_LOG_BYTES = 2048;

export interface PostResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The first 2 KB of the response body (UTF-8, NULs removed so Postgres can store it). */
  body: string;
}

/**
 * One POST to the pinned address, no redirects followed, the whole exchange (connect, headers,
 * first 2 KB of the body) bounded by `timeoutMs`. TLS still verifies the certificate against the
 * URL's host name (SNI is the host, not the IP).
 */
export function postPinned(
  target: ResolvedTarget,
  headers: Record<string, string>,
  body: string,
  opts: Pick<OutboundPolicy, 'timeoutMs'> & { signal?: AbortSignal },
): Promise<PostResult> {
  const mod = target.url.protocol === 'https:' ? https : http;
  return new Promise<PostResult>((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | null, result?: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve(result!);
    };
    const req = mod.request(target.url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: pinnedLookup(target.address, target.family),
      agent: false,
    });
    const timer = setTimeout(() => {
      const err = Object.assign(new Error(`no complete answer within ${opts.timeoutMs / 1000} s`), { code: 'TIMEOUT' });
      req.destroy(err);
      finish(err);
    }, opts.timeoutMs);
    const onAbort = () => {
      const err = Object.assign(new Error('the attempt was cancelled'), { code: 'CANCELLED' });
      req.destroy(err);
      finish(err);
    };
    req.on('error', (err) => finish(err)); // before any destroy(): an unhandled 'error' would crash the worker
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const text = Buffer.concat(chunks)
          .subarray(0, RESPONSE_LOG_BYTES)
          .toString('utf8')
          .replace(/\u0000/g, '');
        finish(null, { status: res.statusCode ?? 0, headers: res.headers, body: text });
        res.destroy();
      };
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        size += c.length;
        if (size >= RESPONSE_LOG_BYTES) done();
      });
      res.on('end', done);
      res.on('error', () => done()); // the status is what counts; a broken body is logged as read so far
    });
    req.end(body);
  });
}
