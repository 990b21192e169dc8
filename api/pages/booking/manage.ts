import { DateTime } from 'luxon';
import { escapeHtml as e, page } from '../../../core/html';
import type { LinkPurpose } from '../../../domain/link-tokens';

/** The `/booking/<token>` pages: server-rendered, plain forms, no script. */
export const MANAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const STYLE = `<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
button{font-size:1rem;padding:.5rem 1rem;cursor:pointer;margin:.2rem}textarea{width:100%;min-height:4rem}
.slots{display:flex;flex-wrap:wrap;gap:.3rem;list-style:none;padding:0}nav a{margin-right:1rem}</style>`;

export interface ManageView {
  token: string;
  purpose: LinkPurpose;
  title: string;
  hostName: string;
  attendeeName: string;
  start: Date;
  end: Date;
  timezone: string;
  meetingLink: string | null;
  closedReason: string | null;
  /** Reschedule: the local date shown and its free starts. */
  date?: string;
  slots?: number[];
  error?: string;
}

const HEADINGS: Record<LinkPurpose, string> = {
  cancel: 'Cancel this meeting',
  reschedule: 'Pick a new time',
  confirm: 'Confirm this booking request',
  decline: 'Decline this booking request',
};

function when(start: Date, end: Date, zone: string): string {
  const s = DateTime.fromJSDate(start, { zone });
  const en = DateTime.fromJSDate(end, { zone });
  return `${s.toFormat('cccc d LLLL yyyy, HH:mm')}–${en.toFormat('HH:mm')} (${zone})`;
}

function summary(v: ManageView): string {
  return `<dl><dt>What</dt><dd>${e(v.title)}</dd><dt>When</dt><dd>${e(when(v.start, v.end, v.timezone))}</dd>
<dt>With</dt><dd>${e(v.purpose === 'confirm' || v.purpose === 'decline' ? v.attendeeName : v.hostName)}</dd>${
    v.meetingLink ? `<dt>Where</dt><dd>${e(v.meetingLink)}</dd>` : ''
  }</dl>`;
}

function actionForm(v: ManageView): string {
  const action = `/booking/${e(v.token)}`;
  if (v.purpose === 'confirm') return `<form method="post" action="${action}"><button type="submit">Confirm</button></form>`;
  if (v.purpose === 'cancel' || v.purpose === 'decline') {
    return `<form method="post" action="${action}"><label for="reason">Reason (optional)</label>
<textarea id="reason" name="reason" maxlength="2000"></textarea>
<button type="submit">${v.purpose === 'cancel' ? 'Cancel the meeting' : 'Decline the request'}</button></form>`;
  }
  const day = DateTime.fromISO(v.date!, { zone: v.timezone });
  const nav = (d: DateTime, label: string) => `<a href="${action}?date=${e(d.toISODate())}">${e(label)}</a>`;
  const slots = v.slots ?? [];
  const list = slots.length
    ? `<ul class="slots">${slots
        .map((t) => {
          const local = DateTime.fromMillis(t, { zone: v.timezone }).toFormat('HH:mm');
          return `<li><form method="post" action="${action}"><input type="hidden" name="start" value="${e(new Date(t).toISOString())}"><button type="submit" aria-label="Move to ${e(local)}">${e(local)}</button></form></li>`;
        })
        .join('')}</ul>`
    : '<p>No free times on this day.</p>';
  return `<h2>${e(day.toFormat('cccc d LLLL yyyy'))}</h2><nav aria-label="Days">${nav(day.minus({ days: 1 }), '← Previous day')}${nav(day.plus({ days: 1 }), 'Next day →')}</nav>${list}`;
}

export function managePage(v: ManageView): string {
  const body = v.closedReason
    ? `<p role="status">${e(v.closedReason)}</p>`
    : `${v.error ? `<p role="alert">${e(v.error)}</p>` : ''}${actionForm(v)}`;
  return page(HEADINGS[v.purpose], `<main><h1>${e(HEADINGS[v.purpose])}</h1>${summary(v)}${body}</main>`, { head: STYLE });
}

export function doneMessagePage(title: string, message: string): string {
  return page(title, `<main><h1 role="status">${e(title)}</h1><p>${e(message)}</p></main>`, { head: STYLE });
}

export function linkNotFoundPage(): string {
  return page('Link not found', '<main><h1>Link not found</h1><p>This link is not valid or has expired.</p></main>', { head: STYLE });
}
