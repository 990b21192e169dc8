import { AiRateLimitedError, retryAfterMs } from '../../core/ai-notes';
import { dailyProvider } from '../../core/video/daily';
import { videoProviders } from '../../core/video';
import { vttToText } from '../../domain/webvtt';
import { NotesMalformedError, summariseTranscript, type SummariseConfig } from '../../services/meeting-followup/summarise';
import { testConfig } from '../helpers/config';
import { startDailyStandin } from './support/daily-standin';
import { startOpenAiStandin } from './support/openai-standin';

// The providers of the follow-up against local stand-ins of their documented APIs: Daily's
// recordings and transcripts (docs.daily.co/reference/rest-api/recordings, …/transcripts) and an
// OpenAI-compatible chat completions server (platform.openai.com/docs/api-reference/chat/create).

let daily: Awaited<ReturnType<typeof startDailyStandin>>;
let ai: Awaited<ReturnType<typeof startOpenAiStandin>>;
beforeAll(async () => {
  daily = await startDailyStandin('daily-key');
  ai = await startOpenAiStandin('ai-key');
});
afterAll(async () => {
  await daily.close();
  await ai.close();
});

const VTT = [
  'WEBVTT',
  '',
  'NOTE recorded by the stand-in',
  '',
  '1',
  '00:00:01.000 --> 00:00:04.000',
  '<v Ada Lovelace>We agreed on the plan.</v>',
  '',
  '00:00:05.000 --> 00:00:09.000',
  '<v Bob>ACTION: send the quote by Friday &amp; call back',
].join('\n');

describe('Daily recordings and transcripts', () => {
  const provider = () => dailyProvider('https://example-team.daily.co/{room}', { apiUrl: daily.url, apiKey: 'daily-key' });

  it('answers processing while the recording is in progress, then the finished one with a fresh link each time', async () => {
    const room = { name: 'fss-rec-room', link: 'https://example-team.daily.co/fss-rec-room' };
    await provider().createMeeting!(room, { title: 'Call', start: new Date(), end: new Date(Date.now() + 1_800_000), record: true });
    expect(daily.rooms.get(room.name)?.config).toMatchObject({ enable_recording: 'cloud', enable_transcription_storage: true });
    daily.state.processingPolls = 1;
    expect(await provider().findRecording!(room)).toEqual({ state: 'processing' });
    const ready = await provider().findRecording!(room);
    expect(ready).toMatchObject({ state: 'ready', durationSeconds: 1740 });
    const id = ready.state === 'ready' ? ready.id : '';
    const first = await provider().recordingLink!(id);
    const second = await provider().recordingLink!(id);
    expect(first.url).toMatch(/^https:\/\/download\.example\.com\/rec-/);
    expect(first.expiresAt).toBeGreaterThan(Date.now()); // Daily's `expires`, in seconds, as epoch ms
    expect(second.url).not.toBe(first.url);
    expect(daily.calls.filter((c) => c.path.startsWith('/v1/recordings')).every((c) => c.authorization === 'Bearer daily-key')).toBe(true);
    expect(daily.calls.some((c) => c.path === `/v1/recordings?room_name=${room.name}`)).toBe(true);
  });

  it('finds the room, lists its transcripts, and downloads the WebVTT through the access link', async () => {
    const room = { name: 'fss-vtt-room', link: 'https://example-team.daily.co/fss-vtt-room' };
    await provider().createMeeting!(room, { title: 'Call', start: new Date(), end: new Date(Date.now() + 1_800_000) });
    expect(await provider().findTranscript!(room)).toEqual({ state: 'none' });
    daily.vtt.set(room.name, VTT);
    expect(await provider().findTranscript!(room)).toEqual({ state: 'ready', vtt: VTT });
    expect(await provider().findTranscript!({ name: 'no-such-room', link: 'x' })).toEqual({ state: 'none' });
  });

  it('a URL-template provider has no recordings API', () => {
    const p = videoProviders(testConfig()).providerOf('video_provider_1');
    expect(p).not.toBeNull();
    expect(p!.findRecording).toBeUndefined();
  });
});

describe('WebVTT', () => {
  it('keeps the words with their speakers, without timings, notes or tags', () => {
    expect(vttToText(VTT)).toBe('Ada Lovelace: We agreed on the plan.\nBob: ACTION: send the quote by Friday & call back');
    expect(vttToText('plain words\n')).toBe('plain words');
  });
});

describe('AI notes through an OpenAI-compatible API', () => {
  const config = (extra: Partial<SummariseConfig> = {}): SummariseConfig => ({
    ...testConfig({ AI_NOTES_API_URL: ai.url, AI_NOTES_API_KEY: 'ai-key', AI_NOTES_MODEL: 'notes-model' }),
    ...extra,
  });
  beforeEach(() => {
    ai.requests.length = 0;
    ai.script.length = 0;
  });

  it('asks for JSON matching the notes schema and validates the answer', async () => {
    const notes = await summariseTranscript(config(), { text: 'Ada: hello\nBob: ACTION: send the deck' });
    expect(notes).toEqual({ summary: 'Discussed 2 lines', action_items: ['send the deck'] });
    const req = ai.requests[0];
    expect(req.authorization).toBe('Bearer ai-key');
    expect(req.body.model).toBe('notes-model');
    expect(req.body.response_format.type).toBe('json_schema');
    expect(req.body.response_format.json_schema.schema).toMatchObject({
      required: ['summary', 'action_items'],
      additionalProperties: false,
    });
  });

  it('asks again after a malformed answer, a bounded number of times', async () => {
    ai.script.push({ content: '{"summary": 3}' }, { content: 'not json at all' });
    const notes = await summariseTranscript(config(), { text: 'Bob: ACTION: book the room' });
    expect(notes.action_items).toEqual(['book the room']);
    expect(ai.requests).toHaveLength(3);
    ai.requests.length = 0;
    ai.script.push({ content: '{}' }, { content: '{}' }, { content: '{}' });
    await expect(summariseTranscript(config({ AI_NOTES_MAX_ATTEMPTS: 3 }), { text: 'x' })).rejects.toBeInstanceOf(NotesMalformedError);
    expect(ai.requests).toHaveLength(3);
  });

  it('a 429 carries the Retry-After for the activity retry', async () => {
    ai.script.push({ status: 429, headers: { 'retry-after': '17' } });
    const err = await summariseTranscript(config(), { text: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AiRateLimitedError);
    expect((err as AiRateLimitedError).retryAfterMs).toBe(17_000);
    expect(retryAfterMs(new Date(Date.UTC(2030, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(30_000);
  });

  it('a transcript longer than the context is summarised in parts, then the parts together', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => (i % 10 === 0 ? `Bob: ACTION: task ${i}` : `Ada: line ${i} of the discussion`));
    const notes = await summariseTranscript(config({ AI_NOTES_MAX_INPUT_CHARS: 700 }), { text: lines.join('\n') });
    const partRequests = ai.requests.filter((r) => /part \d+ of \d+/.test(r.body.messages[1].content));
    expect(partRequests.length).toBeGreaterThanOrEqual(2);
    expect(partRequests.every((r) => r.body.messages[1].content.length <= 700 + 40)).toBe(true);
    expect(ai.requests).toHaveLength(partRequests.length + 1);
    expect(notes.summary).toBe(`Combined notes of ${partRequests.length} parts`);
    expect(notes.action_items).toEqual(['task 0', 'task 10', 'task 20', 'task 30']);
  });
});
