import nodeHttp, { type IncomingHttpHeaders } from 'node:http';

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A tiny fetch wrapper for tests: JSON in, parsed JSON (or text) out. */
export async function http<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; raw?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | Buffer | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, {
    method: method.toUpperCase(),
    headers,
    body: body as BodyInit | undefined,
    redirect: 'manual',
  });
  const text = await res.text();
  let parsed: any = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** `http` bound to a base URL and a credential. */
export function client(baseUrl: string, token?: string) {
  return {
    get: (path: string, headers?: Record<string, string>) => http(baseUrl, 'get', path, { token, headers }),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => http(baseUrl, 'post', path, { token, body, headers }),
    patch: (path: string, body?: unknown, headers?: Record<string, string>) => http(baseUrl, 'patch', path, { token, body, headers }),
    put: (path: string, body?: unknown, headers?: Record<string, string>) => http(baseUrl, 'put', path, { token, body, headers }),
    delete: (path: string, headers?: Record<string, string>) => http(baseUrl, 'delete', path, { token, headers }),
  };
}

/** A raw GET that does not decode gzip (fetch would), so the bytes on the wire can be read and measured. */
export function rawGet(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    nodeHttp
      .get(`${baseUrl}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}
