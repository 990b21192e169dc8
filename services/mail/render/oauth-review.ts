import type { RenderedText } from './scheduling';

/** The app developer's email for a change of review stage (`label` is the stage's wording). */
export function reviewStatusMail(opts: {
  appName: string;
  appId: string;
  round: number;
  stage: string;
  label: string;
  notes: string | null;
}): RenderedText {
  const lines = [
    `Your app "${opts.appName}" moved to a new review stage: ${opts.label}.`,
    opts.notes ? `\nReviewer notes:\n${opts.notes}` : '',
    opts.stage === 'changes_requested' ? '\nUpdate the app and submit it again from the developer portal.' : '',
    opts.stage === 'approved' ? '\nYour app is now listed in the marketplace.' : '',
    `\nApp id: ${opts.appId} (review round ${opts.round})`,
  ];
  return { subject: `[App review] ${opts.appName}: ${opts.label}`, text: lines.filter(Boolean).join('\n') };
}

/** The staff's reminder that a review has waited too long. */
export function reviewReminderMail(opts: {
  appName: string;
  appId: string;
  label: string;
  waitingSinceBusinessDays: number;
}): RenderedText {
  return {
    subject: `[App review] Reminder: "${opts.appName}" has waited ${opts.waitingSinceBusinessDays} business days`,
    text: `The app "${opts.appName}" (${opts.appId}) has been waiting in stage "${opts.label}" for more than ${opts.waitingSinceBusinessDays} business days.\nRecord a decision with POST /api/staff/apps/${opts.appId}/decision.`,
  };
}
