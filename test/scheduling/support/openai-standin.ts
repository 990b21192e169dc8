import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  authorization: string;
  body: {
    model: string;
    messages: Array<{ role: string; content: string }>;
    response_format: { type: string; json_schema: { name: string; strict?: boolean; schema: Record<string, unknown> } };
  };
}

/** One scripted answer instead of the default: a status with headers, or a malformed content. */
export type Scripted = { status: number; headers?: Record<string, string> } | { content: string };

/**
 * A local stand-in for an OpenAI-compatible chat completions server
 * (platform.openai.com/docs/api-reference/chat/create): `POST /v1/chat/completions` with
 * `{model, messages, response_format: {type: 'json_schema', json_schema: {name, schema}}}`, answered
 * by `{id, object: 'chat.completion', created, model, choices: [{index, message: {role, content},
 * finish_reason}], usage}`; errors as `{error: {message, type, code}}`. The default answer follows
 * the request: each transcript line holding `ACTION` becomes an action item; a request combining
 * parts keeps the parts' items. `script` answers the next requests first, in order.
 */
export async function startOpenAiStandin(apiKey: string) {
  const requests: ChatRequest[] = [];
  const script: Scripted[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
        return json(404, { error: { message: 'not found', type: 'invalid_request_error' } });
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        return json(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
      }
      const r: ChatRequest = { authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
      requests.push(r);
      const next = script.shift();
      if (next && 'status' in next) {
        return json(next.status, { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, next.headers);
      }
      const content = next ? next.content : JSON.stringify(defaultNotes(r));
      return json(200, {
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: r.body.model,
        choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/v1`, requests, script, close: () => new Promise<void>((r) => server.close(() => r())) };
}

function defaultNotes(r: ChatRequest): { summary: string; action_items: string[] } {
  const user = r.body.messages.find((m) => m.role === 'user')?.content ?? '';
  const combining = r.body.messages.some((m) => m.role === 'system' && /combine/i.test(m.content));
  if (combining) {
    const items = user
      .split('\n')
      .filter((l) => l.startsWith('- '))
      .map((l) => l.slice(2));
    const parts = (user.match(/^Part \d+$/gm) ?? []).length;
    return { summary: `Combined notes of ${parts} parts`, action_items: [...new Set(items)] };
  }
  const lines = user.split('\n').slice(1);
  return {
    summary: `Discussed ${lines.length} lines`,
    action_items: lines.filter((l) => l.includes('ACTION')).map((l) => l.replace(/^.*ACTION:?\s*/, '')),
  };
}
