import http from 'node:http';
import https from 'node:https';
import { pinnedLookup } from './pin';
import type { OutboundPolicy } from './policy';
import { BlockedTargetError, resolveDeliveryTarget, type ResolvedTarget } from './resolve';

/**
 * A `fetch` through the outbound guard (calendar servers and feeds, the video provider): every request (and
 * every redirect) resolves the host, refuses private, link-local and metadata addresses unless the
 * URL policy allows them, and connects to the address it checked (no second lookup can rebind it).
 * Each exchange is bounded in time and in size. Shaped like `fetch`, so tsdav takes it as its
 * `fetch` override.
 */

export type RemoteFailure = 'blocked' | 'unreachable' | 'timeout' | 'too_large' | 'redirects';

export class RemoteFetchError extends Error {
  constructor(
    readonly reason: RemoteFailure,
    message: string,
    readonly host: string,
  ) {
    super(message);
  }
}

/** What the server answered, request by request: the sync reads it to explain a failure in words. */
export interface FetchTrace {
  responses: Array<{ method: string; url: string; status: number; contentType: string | null }>;
}

export interface RemoteFetchOptions extends OutboundPolicy {
  trace?: FetchTrace;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 204, 205, 304]);

interface RawAnswer {
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function networkMessage(err: NodeJS.ErrnoException, host: string): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `${host} refused the connection`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${host} was not found (DNS)`;
    case 'ECONNRESET':
      return `${host} closed the connection`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${host} is unreachable`;
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `the TLS certificate of ${host} was not accepted (${err.code})`;
    default:
      return `could not reach ${host}${err.code ? ` (${err.code})` : ''}`;
  }
}

function exchange(
  target: ResolvedTarget,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  opts: RemoteFetchOptions,
): Promise<RawAnswer> {
  const host = target.url.host;
  const mod = target.url.protocol === 'https:' ? https : http;
  return new Promise<RawAnswer>((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | null, answer?: RawAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(answer!);
    };
    const req = mod.request(target.url, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: pinnedLookup(target.address, target.family),
      agent: false,
    });
    const timer = setTimeout(() => {
      const err = new RemoteFetchError('timeout', `${host} did not answer within ${Math.round(opts.timeoutMs / 1000)} s`, host);
      req.destroy(err);
      finish(err);
    }, opts.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish(err instanceof RemoteFetchError ? err : new RemoteFetchError('unreachable', networkMessage(err, host), host)),
    );
    req.on('response', (res) => {
      const tooLarge = () =>
        new RemoteFetchError('too_large', `the answer of ${host} is larger than ${Math.round(opts.maxBytes / 1024 / 1024)} MB`, host);
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        const err = tooLarge();
        req.destroy(err);
        return finish(err);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > opts.maxBytes) {
          const err = tooLarge();
          req.destroy(err);
          return finish(err);
        }
        chunks.push(c);
      });
      res.on('end', () =>
        finish(null, {
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? '',
          headers: res.headers,
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', (err: NodeJS.ErrnoException) => finish(new RemoteFetchError('unreachable', networkMessage(err, host), host)));
    });
    req.end(body);
  });
}

function toHeaders(raw: http.IncomingHttpHeaders): Headers {
  const h = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      try {
        h.append(name, v);
      } catch {
        // a header value fetch would refuse: not needed by any caller
      }
    }
  }
  return h;
}

function plainHeaders(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init ?? {}).forEach((value, name) => (out[name] = value));
  return out;
}

/** A `fetch` through the guard (see the file comment). Throws RemoteFetchError for what never got an HTTP answer. */
export function remoteFetch(opts: RemoteFetchOptions): typeof fetch {
  const maxRedirects = opts.maxRedirects ?? 5;
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    if (input instanceof Request) throw new TypeError('remoteFetch takes a URL');
    if (init.body != null && typeof init.body !== 'string') throw new TypeError('remoteFetch sends string bodies only');
    let url = new URL(String(input));
    let method = (init.method ?? 'GET').toUpperCase();
    let body = init.body ?? undefined;
    let headers = plainHeaders(init.headers);
    const origin = url.origin;
    for (let hop = 0; ; hop++) {
      let target: ResolvedTarget;
      try {
        target = await resolveDeliveryTarget(url.toString(), opts.urlPolicy);
      } catch (err) {
        if (err instanceof BlockedTargetError) throw new RemoteFetchError('blocked', err.message, url.host);
        throw new RemoteFetchError('unreachable', `${url.hostname} was not found (DNS)`, url.host);
      }
      const answer = await exchange(target, method, headers, method === 'GET' || method === 'HEAD' ? undefined : body, opts);
      const contentType = typeof answer.headers['content-type'] === 'string' ? answer.headers['content-type'] : null;
      opts.trace?.responses.push({ method, url: url.toString(), status: answer.status, contentType });
      const location = answer.headers.location;
      if (REDIRECTS.has(answer.status) && location && init.redirect !== 'manual') {
        if (hop >= maxRedirects)
          throw new RemoteFetchError('redirects', `${url.host} redirected more than ${maxRedirects} times`, url.host);
        const next = new URL(location, url);
        // Credentials go to the origin they were given for, never to another one a redirect names.
        if (next.origin !== origin) {
          const { authorization: _drop, ...rest } = headers;
          headers = rest;
        }
        if (answer.status === 303) {
          method = 'GET';
          body = undefined;
        }
        url = next;
        continue;
      }
      const status = answer.status < 200 || answer.status > 599 ? 502 : answer.status;
      const res = new Response(NULL_BODY.has(status) || method === 'HEAD' ? null : new Uint8Array(answer.body), {
        status,
        statusText: answer.statusText,
        headers: toHeaders(answer.headers),
      });
      Object.defineProperty(res, 'url', { value: url.toString() });
      return res;
    }
  };
}
