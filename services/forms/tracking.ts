import type { Executor } from '../../db/knex';
import { deviceType } from '../../domain/device';
import { textProblem } from '../../domain/form-fields';
import { validationFailed, type ErrorDetail } from '../../core/errors';
import { TRACKING_KEYS, type TrackingKey } from './schemas';

export type SubmissionMetadata = Record<TrackingKey | 'referrer' | 'user_agent' | 'device_type' | 'country', string | null> & {
  /** The visitor's address, when a server submitted for them with its API key (docs/getting-started.md). */
  visitor_ip?: string | null;
};

function first(v: unknown): string | undefined {
  if (Array.isArray(v)) return first(v[0]);
  return typeof v === 'string' ? v : undefined;
}

/**
 * Submission metadata: the tracking parameters from the POST's query string (the page posts to
 * its own query string), overridden by a body `tracking` object; referrer from `tracking.referrer`
 * (the page sends document.referrer), else the Referer header; device type from the user agent;
 * country from the configured header (two letters), else null.
 */
export interface MetadataInput {
  /** The POST's query string. */
  query: Record<string, unknown>;
  /** The body's `tracking` object. */
  bodyTracking: Partial<Record<TrackingKey | 'referrer', string | null>> | undefined;
  /** The Referer, User-Agent and country headers ('' when absent). */
  referer: string;
  userAgent: string;
  country: string;
  /** The visitor's address passed by a server caller (api/http/server-caller.ts). */
  visitorIp?: string | null;
}

export function buildMetadata(input: MetadataInput): SubmissionMetadata {
  const { query, bodyTracking } = input;
  const issues: ErrorDetail[] = [];
  const meta = {} as SubmissionMetadata;
  for (const k of TRACKING_KEYS) {
    let v: string | null | undefined = bodyTracking?.[k];
    if (v === undefined) {
      v = first(query[k]);
      if (v !== undefined) {
        const p = textProblem(v, 500, false);
        if (p) issues.push({ path: `query.${k}`, message: p });
      }
    }
    meta[k] = v ? v : null;
  }
  if (issues.length) throw validationFailed(issues);
  const referrer = bodyTracking && 'referrer' in bodyTracking ? bodyTracking.referrer : input.referer;
  meta.referrer = referrer ? referrer.slice(0, 2048) : null;
  const ua = input.userAgent;
  meta.user_agent = ua ? ua.slice(0, 1000) : null;
  meta.device_type = deviceType(ua);
  const country = input.country.trim();
  meta.country = /^[A-Za-z]{2}$/.test(country) && country.toUpperCase() !== 'XX' ? country.toUpperCase() : null;
  if (input.visitorIp) meta.visitor_ip = input.visitorIp;
  return meta;
}

/** A view of the public form page, for the analytics (device type from the User-Agent, utm_source). */
export async function recordFormView(
  deps: { db: Executor },
  input: { form: { id: string; team_id: string }; userAgent: string; utmSource?: string },
): Promise<void> {
  await deps.db('form_views').insert({
    team_id: input.form.team_id,
    form_id: input.form.id,
    device_type: deviceType(input.userAgent),
    utm_source: input.utmSource ? input.utmSource.slice(0, 500) : null,
  });
}
