import { createTestTeam } from '../helpers/fixtures';
import { client } from '../helpers/http';
import { useApiWorld } from '../helpers/world';
import { insertMeeting } from '../fixtures/scheduling';
import { expireTranscripts, transcriptText } from '../../services/meeting-followup/transcripts';
import { jsonb } from '../../db/jsonb';
import { instantDaysAhead } from '../helpers/open-day';

/**
 * Integrators bring their own recording and transcript (PUT …/recording, POST …/transcript), the
 * per-event-type AI notes switch, and privacy: sealed transcripts, erase with the contact, expiry.
 * No Temporal here: the notes starts wait in the outbox (the end-to-end run is followup.test.ts).
 */
const w = useApiWorld();

const notesStarts = (id: string) => w.tdb.db('outbox').where('workflow_id', 'like', `meeting-notes-${id}-%`);

describe('PUT /api/v1/meetings/{id}/recording', () => {
  it('sets the recording, records meeting.recording_ready and enqueues the notes step', async () => {
    const id = await insertMeeting(w.tdb.db, w.team, { status: 'completed' });
    const res = await w.api.put(`/api/v1/meetings/${id}/recording`, { url: 'https://videos.example.org/a.mp4', duration_seconds: 61 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      recording: { url: 'https://videos.example.org/a.mp4', duration_seconds: 61 },
      recording_reason: null,
    });
    const event = await w.tdb
      .db('events')
      .where({ team_id: w.team.teamId, type: 'meeting.recording_ready' })
      .orderBy('created_at', 'desc')
      .first();
    expect(event!.payload).toMatchObject({ event: 'meeting.recording_ready', data: { meeting_id: id, source: 'integrator' } });
    const starts = await notesStarts(id);
    expect(starts).toHaveLength(1);
    expect(starts[0].workflow_type).toBe('meetingNotesWorkflow');
  });

  it('refuses a bad URL or duration (400) and another team’s meeting (404)', async () => {
    const id = await insertMeeting(w.tdb.db, w.team);
    const bad = await w.api.put(`/api/v1/meetings/${id}/recording`, { url: 'javascript:alert(1)', duration_seconds: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
    const other = await createTestTeam(w.tdb.db);
    const theirs = await client(w.app.baseUrl, other.apiKey).put(`/api/v1/meetings/${id}/recording`, {
      url: 'https://videos.example.org/b.mp4',
      duration_seconds: 5,
    });
    expect(theirs.status).toBe(404);
    expect((await w.tdb.db('meetings').where({ id }).first())!.recording).toBeNull();
  });
});

describe('POST /api/v1/meetings/{id}/transcript', () => {
  it('keeps the transcript sealed, marks the notes pending and enqueues the notes step', async () => {
    const id = await insertMeeting(w.tdb.db, w.team, { status: 'completed' });
    const vtt = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Ada>ACTION: ship it';
    const res = await w.api.post(`/api/v1/meetings/${id}/transcript`, { format: 'vtt', content: vtt });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ id, ai_notes: null, ai_notes_reason: 'pending' });
    const row = (await w.tdb.db('meeting_transcripts').where({ meeting_id: id }).first())!;
    expect(row).toMatchObject({ format: 'vtt', source: 'integrator', team_id: w.team.teamId });
    expect(row.sealed).not.toContain('ship it');
    expect(row.expires_at.getTime() - Date.now()).toBeGreaterThan(89 * 86_400_000);
    expect(await transcriptText({ db: w.tdb.db, config: w.app.config }, { meetingId: id })).toBe('Ada: ACTION: ship it');
    expect(await notesStarts(id)).toHaveLength(1);
  });

  it('refuses an empty, oversized or unknown-format transcript (400) and another team’s meeting (404)', async () => {
    const id = await insertMeeting(w.tdb.db, w.team);
    for (const body of [
      { format: 'vtt', content: '' },
      { format: 'text', content: 'x'.repeat(500_001) },
      { format: 'srt', content: 'x' },
    ]) {
      const res = await w.api.post(`/api/v1/meetings/${id}/transcript`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    const other = await createTestTeam(w.tdb.db);
    const theirs = await client(w.app.baseUrl, other.apiKey).post(`/api/v1/meetings/${id}/transcript`, { format: 'text', content: 'hi' });
    expect(theirs.status).toBe(404);
    expect(await w.tdb.db('meeting_transcripts').where({ meeting_id: id })).toHaveLength(0);
  });
});

describe('the AI notes switch on event types', () => {
  it('is off by default and can be turned on', async () => {
    const page = await w.api.post('/api/v1/scheduling-pages', { title: 'Notes page' });
    const created = await w.api.post(`/api/v1/scheduling-pages/${page.body.data.id}/event-types`, { title: 'Call' });
    expect(created.status).toBe(201);
    expect(created.body.data.ai_notes_enabled).toBe(false);
    const on = await w.api.patch(`/api/v1/scheduling-pages/${page.body.data.id}/event-types/${created.body.data.id}`, {
      ai_notes_enabled: true,
    });
    expect(on.status).toBe(200);
    expect(on.body.data.ai_notes_enabled).toBe(true);
  });
});

describe('privacy', () => {
  it("erasing a contact removes their meetings' transcripts and notes", async () => {
    const [contact] = await w.tdb
      .db('contacts')
      .insert({ team_id: w.team.teamId, email: `erase-${Date.now()}@example.com` })
      .returning('id');
    const id = await insertMeeting(w.tdb.db, w.team, { status: 'completed' });
    await w.tdb
      .db('meetings')
      .where({ id })
      .update({ contact_id: contact.id, ai_notes: jsonb({ summary: 'Private', action_items: ['a'] }) });
    expect((await w.api.post(`/api/v1/meetings/${id}/transcript`, { format: 'text', content: 'secret words' })).status).toBe(202);
    expect((await w.api.delete(`/api/v1/contacts/${contact.id}`)).status).toBe(204);
    expect(await w.tdb.db('meeting_transcripts').where({ meeting_id: id })).toHaveLength(0);
    const read = await w.api.get(`/api/v1/meetings/${id}`);
    expect(read.body.data).toMatchObject({ ai_notes: null, ai_notes_reason: 'erased' });
  });

  it('transcripts past their retention are deleted by the maintenance task', async () => {
    const id = await insertMeeting(w.tdb.db, w.team, { status: 'completed' });
    expect((await w.api.post(`/api/v1/meetings/${id}/transcript`, { format: 'text', content: 'kept a while' })).status).toBe(202);
    const later = new Date(instantDaysAhead(w.app.config.TRANSCRIPT_RETENTION_DAYS + 1));
    const { deleted } = await expireTranscripts({ db: w.tdb.db }, { now: later });
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await w.tdb.db('meeting_transcripts').where({ meeting_id: id })).toHaveLength(0);
  });
});
