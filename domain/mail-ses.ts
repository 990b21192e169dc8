/**
 * Amazon SES notifications that arrive as mail: an SNS topic with an email subscription sends each
 * SES event as a message from `no-reply@sns.amazonaws.com` whose body is the event's JSON (protocol
 * "email"), or the SNS envelope with the event in its `Message` string (protocol "email-json").
 * Shapes followed: AWS, "Amazon SNS notification contents for Amazon SES"
 * (https://docs.aws.amazon.com/ses/latest/dg/notification-contents.html) and "Parsing Amazon SNS
 * message formats" (https://docs.aws.amazon.com/sns/latest/dg/sns-message-and-json-formats.html).
 * Pure.
 */
import { decideSeverity, statusVerdict } from './mail-status';

export type SesClass =
  | { kind: 'bounce'; type: 'hard' | 'soft'; status: string | null; diagnostic: string | null; recipient: string | null; standard: boolean }
  | { kind: 'warning'; status: string | null; recipient: string | null }
  | { kind: 'complaint'; feedbackType: string }
  | { kind: 'unknown'; reason: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * The JSON object of a body: from its first `{` to its last `}` (SNS adds an unsubscribe footer),
 * with the breaks Sendmail puts in lines over its limit taken out (`!`, line end, space: never
 * valid JSON, so nothing valid is changed). Null when it does not parse.
 */
function jsonOf(body: string): Json | null {
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end < start) return null;
  try {
    const value: unknown = JSON.parse(body.slice(start, end + 1).replace(/!\r?\n /g, ''));
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** The SES event of a body: the body itself, or the SNS envelope's `Message`. */
function sesEvent(body: string): Json | null {
  const outer = jsonOf(body);
  if (!outer) return null;
  if (typeof outer.notificationType === 'string' || typeof outer.eventType === 'string') return outer;
  if (outer.Type === 'Notification' && typeof outer.Message === 'string') {
    const inner = jsonOf(outer.Message);
    return inner && (typeof inner.notificationType === 'string' || typeof inner.eventType === 'string') ? inner : null;
  }
  return null;
}

/** Permanent: SES will not try again (the address is dead or suppressed); Transient and Undetermined: soft. */
const BOUNCE_TYPE: Readonly<Record<string, 'hard' | 'soft'>> = { Permanent: 'hard', Transient: 'soft', Undetermined: 'soft' };

/**
 * The class of an SES notification body, or null when the body is not one. A bounce is decided as
 * any other: the recipient's `status` (RFC 3463) and its `diagnosticCode` first (mail-status.ts),
 * SES's `bounceType` only when neither says anything.
 */
export function sesNotification(body: string): SesClass | null {
  const head = body.trimStart();
  if (!head.startsWith('{') || (!body.includes('notificationType') && !body.includes('eventType'))) return null;
  const event = sesEvent(body);
  if (!event) return null;
  const type = text(event.notificationType) ?? text(event.eventType);
  if (type === 'Bounce' && isObject(event.bounce)) {
    const bounce = event.bounce;
    const first = Array.isArray(bounce.bouncedRecipients) ? bounce.bouncedRecipients.find(isObject) : undefined;
    const status = text(first?.status);
    const diagnostic = text(first?.diagnosticCode)?.replace(/^smtp;\s*/i, '') ?? null;
    const byType = BOUNCE_TYPE[text(bounce.bounceType) ?? ''] ?? 'soft';
    const verdict =
      statusVerdict(status) ?? (status || diagnostic ? decideSeverity({ status, text: `${status ?? ''}\n${diagnostic ?? ''}` }) : null);
    const said = verdict && verdict.basis !== 'none';
    return {
      kind: 'bounce',
      type: said ? verdict.type : byType,
      status: said ? verdict.status : status,
      diagnostic,
      recipient: text(first?.emailAddress),
      standard: false,
    };
  }
  if (type === 'DeliveryDelay' && isObject(event.deliveryDelay)) {
    // SES is still trying (event publishing): a warning, nothing changes for the address.
    const delay = event.deliveryDelay;
    const first = Array.isArray(delay.delayedRecipients) ? delay.delayedRecipients.find(isObject) : undefined;
    return { kind: 'warning', status: text(first?.status), recipient: text(first?.emailAddress) };
  }
  if (type === 'Complaint' && isObject(event.complaint)) {
    return { kind: 'complaint', feedbackType: (text(event.complaint.complaintFeedbackType) ?? 'abuse').toLowerCase() };
  }
  return { kind: 'unknown', reason: `Amazon SES ${type ?? 'notification'} notification (not a failure)` };
}
