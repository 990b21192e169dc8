import { remoteFetch, RemoteFetchError, type OutboundPolicy } from './outbound-http';
import type { Config } from './config';

/**
 * An OpenAI-compatible chat completions client (OpenAI, Azure OpenAI, Ollama, vLLM, LM Studio):
 * `POST {AI_NOTES_API_URL}/chat/completions` with `Authorization: Bearer <AI_NOTES_API_KEY>`, a
 * `response_format` of type `json_schema`, answered by `{choices: [{message: {content}}]}`
 * (platform.openai.com/docs/api-reference/chat/create). See docs/scheduling.md "AI notes".
 */

/** The provider asked us to wait (429): the activity is retried after `retryAfterMs` (Temporal's nextRetryDelay). */
export class AiRateLimitedError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`AI notes provider: HTTP 429, retry after ${Math.round(retryAfterMs / 1000)} s`);
  }
}
/** A 5xx or a network failure: worth retrying on the activity's schedule. */
export class AiProviderError extends Error {}
/** The answer was not the JSON asked for (asked again a bounded number of times by the caller). */
export class AiMalformedAnswerError extends Error {}

/**
 * The operator's own setting (a local Ollama is common), so loopback and private addresses are
 * allowed; link-local and metadata addresses never are. A model may take a while: 2 minutes.
 */
export const AI_NOTES_OUTBOUND: OutboundPolicy = {
  urlPolicy: { loopback: true, private: true },
  timeoutMs: 120_000,
  maxBytes: 1024 * 1024,
  maxRedirects: 0,
};

export type AiNotesConfig = Pick<Config, 'AI_NOTES_API_URL' | 'AI_NOTES_API_KEY' | 'AI_NOTES_MODEL'>;

/** `Retry-After` as seconds or an HTTP date; absent or unreadable: 30 s. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (!header) return 30_000;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? 30_000 : Math.max(0, at - now);
}

export interface ChatJsonRequest {
  system: string;
  user: string;
  schemaName: string;
  schema: Record<string, unknown>;
}

/** One request; answers the parsed JSON of the first choice's content. */
export async function chatJson(config: AiNotesConfig, req: ChatJsonRequest): Promise<unknown> {
  if (!config.AI_NOTES_API_URL) throw new Error('AI_NOTES_API_URL is not set');
  const url = `${config.AI_NOTES_API_URL.replace(/\/+$/, '')}/chat/completions`;
  let res: Response;
  try {
    res = await remoteFetch(AI_NOTES_OUTBOUND)(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(config.AI_NOTES_API_KEY ? { authorization: `Bearer ${config.AI_NOTES_API_KEY}` } : {}),
      },
      body: JSON.stringify({
        model: config.AI_NOTES_MODEL,
        messages: [
          { role: 'system', content: req.system },
          { role: 'user', content: req.user },
        ],
        response_format: { type: 'json_schema', json_schema: { name: req.schemaName, strict: true, schema: req.schema } },
      }),
    });
  } catch (err) {
    if (err instanceof RemoteFetchError && err.reason === 'blocked') throw new Error(`AI notes provider: ${err.message}`);
    throw new AiProviderError(`AI notes provider: ${String(err)}`);
  }
  if (res.status === 429) throw new AiRateLimitedError(retryAfterMs(res.headers.get('retry-after')));
  if (res.status >= 500) throw new AiProviderError(`AI notes provider: HTTP ${res.status}`);
  if (!res.ok) throw new Error(`AI notes provider refused the request: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
  const body = (await res.json()) as { choices?: Array<{ message?: { content?: unknown } }> };
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new AiMalformedAnswerError('no message content in the answer');
  try {
    return JSON.parse(content);
  } catch {
    throw new AiMalformedAnswerError('the message content is not JSON');
  }
}
