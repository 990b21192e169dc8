import { z } from 'zod';
import { AiMalformedAnswerError, chatJson, type AiNotesConfig } from '../../core/ai-notes';
import type { Config } from '../../core/config';
import type { MeetingAiNotes } from '../../domain/meeting-followup';
import { splitIntoParts } from '../../domain/webvtt';

/** What the model must answer: validated with zod, whatever the provider claims about strict schemas. */
const notesAnswer = z.strictObject({
  summary: z.string().trim().min(1).max(20_000),
  action_items: z.array(z.string().trim().min(1).max(2_000)).max(100),
});

/** The same shape as JSON Schema, sent as `response_format.json_schema.schema`. */
export const NOTES_JSON_SCHEMA = {
  type: 'object',
  properties: {
    summary: { type: 'string', description: 'A short summary of the meeting' },
    action_items: { type: 'array', items: { type: 'string' }, description: 'Concrete follow-ups, one per item' },
  },
  required: ['summary', 'action_items'],
  additionalProperties: false,
} as const;

const SYSTEM = [
  'You write meeting notes from a transcript.',
  'Answer with JSON only: {"summary": string, "action_items": string[]}.',
  'Use only what the transcript says; when it holds no action items, answer an empty list.',
].join(' ');
const PARTS_SYSTEM = [
  'You combine the notes of consecutive parts of one meeting into the notes of the whole meeting.',
  'Answer with JSON only: {"summary": string, "action_items": string[]}; keep every distinct action item once.',
].join(' ');

export type SummariseConfig = AiNotesConfig & Pick<Config, 'AI_NOTES_MAX_INPUT_CHARS' | 'AI_NOTES_MAX_ATTEMPTS'>;

/** Thrown when every attempt answered something that is not the notes' shape. */
export class NotesMalformedError extends Error {}

/** One request, asked again while the answer is malformed (AI_NOTES_MAX_ATTEMPTS in all). */
async function askNotes(config: SummariseConfig, system: string, user: string): Promise<MeetingAiNotes> {
  let last = '';
  for (let attempt = 1; attempt <= config.AI_NOTES_MAX_ATTEMPTS; attempt++) {
    try {
      const parsed = notesAnswer.safeParse(
        await chatJson(config, { system, user, schemaName: 'meeting_notes', schema: NOTES_JSON_SCHEMA }),
      );
      if (parsed.success) return parsed.data;
      last = parsed.error.issues[0]?.message ?? 'not the notes shape';
    } catch (err) {
      if (!(err instanceof AiMalformedAnswerError)) throw err;
      last = err.message;
    }
  }
  throw new NotesMalformedError(`the notes provider answered ${config.AI_NOTES_MAX_ATTEMPTS} malformed answers (last: ${last})`);
}

const partNotes = (notes: MeetingAiNotes[]) =>
  notes
    .map((n, i) => `Part ${i + 1}\nSummary: ${n.summary}\nAction items:\n${n.action_items.map((a) => `- ${a}`).join('\n') || '(none)'}`)
    .join('\n\n');

/**
 * The notes of a transcript. One that fits AI_NOTES_MAX_INPUT_CHARS is one request; a longer one is
 * cut into parts at line ends, each part summarised, then the parts' notes summarised together
 * (again in parts while they are still too long).
 */
export async function summariseTranscript(config: SummariseConfig, input: { text: string }): Promise<MeetingAiNotes> {
  const max = config.AI_NOTES_MAX_INPUT_CHARS;
  const parts = splitIntoParts(input.text, max);
  if (parts.length === 1) return askNotes(config, SYSTEM, `Transcript:\n${parts[0]}`);
  const notes: MeetingAiNotes[] = [];
  for (const [i, part] of parts.entries()) {
    notes.push(await askNotes(config, SYSTEM, `Transcript, part ${i + 1} of ${parts.length}:\n${part}`));
  }
  let current = notes;
  let combined = partNotes(current);
  while (combined.length > max && current.length > 1) {
    const again: MeetingAiNotes[] = [];
    for (const piece of splitIntoParts(combined, max)) again.push(await askNotes(config, PARTS_SYSTEM, piece));
    if (again.length >= current.length) break; // no progress: send what there is
    current = again;
    combined = partNotes(current);
  }
  return askNotes(config, PARTS_SYSTEM, combined);
}
