/**
 * Workflows started before a change replay with today's code (Temporal would otherwise fail them
 * with a nondeterminism error on the next task). The histories in test/fixtures/histories/ were
 * recorded with the booking and cleanup workflows as they were before
 * patched('booking-calendar-write') (commit 0ddcd3c's workflows, stub activities): a booking that
 * ran to completion, a request that lapsed unconfirmed, a cleanup. `booking-patched-scheduled.b64`
 * was recorded with every patch in (the input without `version`), `booking-v2-scheduled.b64` with
 * code version 2 (the first step as one local activity), both with stub activities, run to completion.
 */
import fs from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { workflowBundle } from '../helpers/temporal';

const DIR = path.join(__dirname, '..', 'fixtures', 'histories');
const load = (name: string) => temporal.api.history.v1.History.decode(Buffer.from(fs.readFileSync(path.join(DIR, name), 'utf8'), 'base64'));

describe('replay of histories recorded before booking-calendar-write', () => {
  it.each(['booking-scheduled.b64', 'booking-pending-lapsed.b64', 'cleanup.b64'])('%s replays without nondeterminism', async (name) => {
    const history = load(name);
    expect(history.events?.length).toBeGreaterThan(5);
    await expect(Worker.runReplayHistory({ workflowBundle: workflowBundle() }, history, name)).resolves.toBeUndefined();
  });
});

describe('replay of booking histories of each code version', () => {
  it.each(['booking-patched-scheduled.b64', 'booking-v2-scheduled.b64'])('%s replays without nondeterminism', async (name) => {
    const history = load(name);
    expect(history.events?.length).toBeGreaterThan(5);
    await expect(Worker.runReplayHistory({ workflowBundle: workflowBundle() }, history, name)).resolves.toBeUndefined();
  });
});
