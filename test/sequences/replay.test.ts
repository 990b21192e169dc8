import fs from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { workflowBundle } from '../helpers/temporal';
import { makeContact } from './support/factory';
import { useWorld } from './support/world';

/**
 * Replay safety of `sequenceEnrollmentWorkflow` (docs/sequences.md, "Workflow changes"): the
 * current workflow code must replay every history recorded from earlier code
 * (test/sequences/histories/, one file per scenario and code version) and the histories it makes
 * itself. A change that would break running enrollments fails here.
 *
 * To record the current code's histories as fixtures (before changing the workflow):
 * `SEQ_RECORD_HISTORIES=<label> npx jest test/sequences/replay.test.ts`.
 */
const w = useWorld();
const DIR = path.join(__dirname, 'histories');
const DAY = 86_400_000;
const EVENT = temporal.api.enums.v1.EventType;
const History = temporal.api.history.v1.History;

// Fixtures are protobufjs objects as JSON (enum names, 64-bit integers and bytes as strings):
// historyToJSON of @temporalio/common fails with the protobufjs installed here.
const historyToFile = (h: temporal.api.history.v1.IHistory) =>
  JSON.stringify(History.toObject(History.fromObject(h), { longs: String, enums: String, bytes: String }));
const historyFromFile = (text: string) => History.fromObject(JSON.parse(text));

const emailStep = (delay: number, unit = 'days') => ({
  channel: 'email',
  delay: { value: delay, unit },
  subject: 'Hello {{first_name}}',
  body: '<p>Hello</p><a href="https://example.com/x">Link</a>',
});

async function sequence(body: Record<string, unknown>) {
  const res = await w.dash.post('/api/v1/sequences', { name: 'Replay', status: 'active', ...body });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; steps: Array<{ id: string }> };
}

async function enroll(sequenceId: string, contactId: string): Promise<string> {
  const res = await w.api.post(`/api/v1/sequences/${sequenceId}/enrollments`, { contact_id: contactId });
  expect(res.status).toBe(201);
  return res.body.data[0].id;
}

const handle = (enrollmentId: string) => w.env.client.workflow.getHandle(`enrollment-${enrollmentId}`);

async function waitingFor(enrollmentId: string, stepId: string) {
  await w.waitStarted(`enrollment-${enrollmentId}`);
  for (let i = 0; i < 400; i++) {
    const state = await handle(enrollmentId).query<{ phase: string; stepId: string | null }>('state');
    if (state.phase === 'waiting_delay' && state.stepId === stepId) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`enrollment ${enrollmentId} never reached the delay before step ${stepId}`);
}

async function closedWithoutSkipping(enrollmentId: string) {
  for (let i = 0; i < 200; i++) {
    if ((await handle(enrollmentId).describe()).status.name === 'COMPLETED') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`enrollment ${enrollmentId} did not complete`);
}

/** The scenarios whose histories are replayed (and recorded): each returns its enrollment id and result. */
const scenarios: Record<string, () => Promise<{ id: string; result: unknown }>> = {
  'one-step': async () => {
    const seq = await sequence({ steps: [emailStep(0, 'minutes')] });
    const id = await enroll(seq.id, await makeContact(w.tdb.db, w.team.teamId));
    return { id, result: await w.result(id) };
  },
  'three-steps': async () => {
    const seq = await sequence({
      send_from_number: '+15550001111',
      steps: [emailStep(0), { channel: 'sms', delay: { value: 2, unit: 'days' }, body: 'Hi {{first_name}}' }, emailStep(5)],
    });
    const id = await enroll(seq.id, await makeContact(w.tdb.db, w.team.teamId, { phone: '+15559990001' }));
    return { id, result: await w.result(id) };
  },
  window: async () => {
    const seq = await sequence({ steps: [emailStep(0)], sending_window: { days: [1, 2, 3, 4, 5], start: '09:00', end: '10:00' } });
    const id = await enroll(seq.id, await makeContact(w.tdb.db, w.team.teamId, { timezone: 'Asia/Tokyo' }));
    return { id, result: await w.result(id) };
  },
  'paused-resumed': async () => {
    const seq = await sequence({ steps: [emailStep(0), emailStep(1)] });
    const id = await enroll(seq.id, await makeContact(w.tdb.db, w.team.teamId));
    await waitingFor(id, seq.steps[1].id);
    expect((await w.dash.patch(`/api/v1/sequences/${seq.id}`, { status: 'paused' })).status).toBe(200);
    await w.env.sleep(3 * DAY);
    expect((await handle(id).query<{ phase: string }>('state')).phase).toBe('paused');
    expect((await w.dash.patch(`/api/v1/sequences/${seq.id}`, { status: 'active' })).status).toBe(200);
    await closedWithoutSkipping(id);
    return { id, result: await w.result(id) };
  },
  unenrolled: async () => {
    const seq = await sequence({ steps: [emailStep(0), emailStep(3)] });
    const id = await enroll(seq.id, await makeContact(w.tdb.db, w.team.teamId));
    await waitingFor(id, seq.steps[1].id);
    expect((await w.api.delete(`/api/v1/sequences/${seq.id}/enrollments/${id}`)).status).toBe(204);
    await closedWithoutSkipping(id);
    return { id, result: await w.result(id) };
  },
};

const expected: Record<string, unknown> = {
  'one-step': { status: 'completed', reason: 'completed', sent: 1 },
  'three-steps': { status: 'completed', reason: 'completed', sent: 3 },
  window: { status: 'completed', reason: 'completed', sent: 1 },
  'paused-resumed': { status: 'completed', reason: 'completed', sent: 2 },
  unenrolled: { status: 'exited', reason: 'unenrolled', sent: 1 },
};

const replay = (history: unknown, workflowId: string) => Worker.runReplayHistory({ workflowBundle: workflowBundle() }, history, workflowId);

/** Event counts of a history by type name, e.g. { MARKER_RECORDED: 2 }. */
function eventCounts(history: temporal.api.history.v1.IHistory): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of history.events ?? []) {
    const name = String(EVENT[e.eventType as number]).replace(/^EVENT_TYPE_/, '');
    out[name] = (out[name] ?? 0) + 1;
  }
  return out;
}

/** What new enrollments cost (docs/throughput.md): events by type in the current code's histories. */
const shapes: Record<string, Record<string, number>> = {
  // One workflow task: the start's lookup and send in one local activity, the status upsert, the end.
  'one-step': {
    WORKFLOW_EXECUTION_STARTED: 1,
    WORKFLOW_TASK_SCHEDULED: 1,
    WORKFLOW_TASK_STARTED: 1,
    WORKFLOW_TASK_COMPLETED: 1,
    MARKER_RECORDED: 1,
    UPSERT_WORKFLOW_SEARCH_ATTRIBUTES: 1,
    WORKFLOW_EXECUTION_COMPLETED: 1,
  },
  // Asleep until the window opens: the start's local activity finds it closed; one timer; the send.
  window: {
    WORKFLOW_EXECUTION_STARTED: 1,
    WORKFLOW_TASK_SCHEDULED: 2,
    WORKFLOW_TASK_STARTED: 2,
    WORKFLOW_TASK_COMPLETED: 2,
    MARKER_RECORDED: 2,
    TIMER_STARTED: 1,
    TIMER_FIRED: 1,
    UPSERT_WORKFLOW_SEARCH_ATTRIBUTES: 1,
    WORKFLOW_EXECUTION_COMPLETED: 1,
  },
};

describe.each(Object.keys(scenarios))('the current code replays its own history: %s', (name) => {
  test('runs, then replays from the start', async () => {
    const { id, result } = await scenarios[name]();
    expect(result).toEqual(expected[name]);
    const history = await handle(id).fetchHistory();
    await replay(history, `enrollment-${id}`);
    // New enrollments record no patch marker (and so no TemporalChangeVersion upsert).
    expect(JSON.stringify(history.events?.map((e) => e.markerRecordedEventAttributes?.markerName))).not.toContain('core_patch');
    if (shapes[name]) expect(eventCounts(history)).toEqual(shapes[name]);
    const label = process.env.SEQ_RECORD_HISTORIES;
    if (label) {
      fs.mkdirSync(DIR, { recursive: true });
      fs.writeFileSync(path.join(DIR, `${label}-${name}.json`), historyToFile(history));
    }
  });
});

test('every history recorded from earlier workflow code replays on the current code', async () => {
  const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json'));
  expect(files.length).toBeGreaterThanOrEqual(Object.keys(scenarios).length);
  for (const file of files) {
    const history = historyFromFile(fs.readFileSync(path.join(DIR, file), 'utf8'));
    await expect(replay(history, `replay-${file}`)).resolves.toBeUndefined();
  }
});
