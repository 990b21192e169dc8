import { atRestBox, rowAad } from '../../core/secret-box';
import type { Executor } from '../../db/knex';
import { vttToText } from '../../domain/webvtt';
import type { ServiceDeps } from '../deps';

/** The most a transcript may hold (POST …/transcript, and a provider's file): 500,000 characters. */
export const TRANSCRIPT_MAX_CHARS = 500_000;

const aad = (meetingId: string) => rowAad('meeting_transcripts', meetingId);

export interface StoreTranscriptInput {
  meetingId: string;
  teamId: string;
  content: string;
  format: 'vtt' | 'text';
  source: 'provider' | 'integrator';
}

/**
 * Keep a transcript sealed with the at-rest key (core/secret-box.ts, as calendar credentials are),
 * bound to its meeting, until TRANSCRIPT_RETENTION_DAYS from now. An integrator's transcript
 * replaces what was there; the provider's never replaces an integrator's.
 */
export async function storeTranscript(deps: Pick<ServiceDeps, 'db' | 'config'>, input: StoreTranscriptInput): Promise<void> {
  const { db, config } = deps;
  const sealed = atRestBox(config).seal(input.content.slice(0, TRANSCRIPT_MAX_CHARS), aad(input.meetingId));
  const expiresAt = new Date(Date.now() + config.TRANSCRIPT_RETENTION_DAYS * 86_400_000);
  const row = { meeting_id: input.meetingId, team_id: input.teamId, sealed, format: input.format, source: input.source };
  const insert = db('meeting_transcripts').insert({ ...row, expires_at: expiresAt });
  if (input.source === 'integrator') await insert.onConflict('meeting_id').merge({ ...row, created_at: new Date(), expires_at: expiresAt });
  else await insert.onConflict('meeting_id').ignore();
}

/** The meeting's transcript as plain text (WebVTT cues flattened), or null when none is kept. */
export async function transcriptText(deps: Pick<ServiceDeps, 'db' | 'config'>, input: { meetingId: string }): Promise<string | null> {
  const row = await deps.db('meeting_transcripts').where({ meeting_id: input.meetingId }).first('sealed', 'format');
  if (!row) return null;
  const plain = atRestBox(deps.config).open(row.sealed, aad(input.meetingId));
  return row.format === 'vtt' ? vttToText(plain) : plain.trim();
}

/** Erasing a contact: the transcripts and AI notes of their meetings go (docs/scheduling.md "Privacy"). */
export async function eraseContactMeetingNotes(trx: Executor, input: { teamId: string; contactId: string }): Promise<void> {
  const ids = trx('meetings').where({ team_id: input.teamId, contact_id: input.contactId }).select('id');
  await trx('meeting_transcripts').whereIn('meeting_id', ids).delete();
  await trx('meetings')
    .where({ team_id: input.teamId, contact_id: input.contactId })
    .update({ ai_notes: null, ai_notes_reason: 'erased', updated_at: trx.fn.now() });
}

/** The retention: transcripts past their `expires_at` are deleted (maintenance task `transcript-expiry`). */
export async function expireTranscripts(deps: Pick<ServiceDeps, 'db'>, input: { now?: Date } = {}): Promise<{ deleted: number }> {
  const deleted = await deps
    .db('meeting_transcripts')
    .where('expires_at', '<', input.now ?? new Date())
    .delete();
  return { deleted };
}
