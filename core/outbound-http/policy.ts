import type { UrlPolicy } from '../../domain/ssrf';

/**
 * What one feature allows its outbound requests (docs/webhooks.md "Outbound HTTP"). Each caller
 * builds its own and passes it on every call: webhooks (services/webhooks/attempt.ts), calendar
 * reads and write-back (services/calendars/), the video provider (core/video/daily.ts).
 */
export interface OutboundPolicy {
  /** Which non-public address classes may be reached (link-local and metadata never are). */
  urlPolicy: UrlPolicy;
  /** Bound on one exchange: connect, headers and the whole body. */
  timeoutMs: number;
  /** Bound on one response body. */
  maxBytes: number;
  /** Redirects followed before giving up (default 5); the webhooks' POST follows none. */
  maxRedirects?: number;
}
