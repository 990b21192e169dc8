// The typed outbox: a start is checked against the workflow's own signature. The checks that
// matter run in `npm run build` (tsc, which includes this file): each `@ts-expect-error` line must
// be an error, so a typed outbox that went loose again would fail the build.
import type { DirectHandler, Enqueue, WorkflowName, WorkflowStart } from '../../temporal/outbox';
import type * as workflows from '../../workflows';
import type { WorkflowStarts } from '../../workflows/starts';

// The outbox takes its types from the contracts (workflows/starts.ts), not from the worker's barrel.
// These lines hold the two together: every workflow of the barrel is declared, nothing else is,
// and each declared signature and the workflow's own are assignable both ways.
type Barrel = typeof workflows;
type BarrelWorkflow = { [K in keyof Barrel]: Barrel[K] extends (...args: any[]) => Promise<unknown> ? K : never }[keyof Barrel];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameNames: Same<BarrelWorkflow, keyof WorkflowStarts> = true;
const declaredAreReal: { [K in keyof WorkflowStarts]: Same<Parameters<WorkflowStarts[K]>, Parameters<Barrel[K]>> } = {
  accountEmailWorkflow: true,
  appReviewWorkflow: true,
  bookingWorkflow: true,
  calendarSyncWorkflow: true,
  inboundEmailWorkflow: true,
  invitationWorkflow: true,
  maintenanceWorkflow: true,
  meetingCleanupWorkflow: true,
  meetingFollowupWorkflow: true,
  meetingNotesWorkflow: true,
  pingWorkflow: true,
  sequenceEnrollmentWorkflow: true,
  sequenceSignalsWorkflow: true,
  submissionNotificationWorkflow: true,
  unbookedFollowUpWorkflow: true,
  webhookDeliveryWorkflow: true,
};
const sameResults: { [K in keyof WorkflowStarts]: Same<ReturnType<WorkflowStarts[K]>, ReturnType<Barrel[K]>> } = declaredAreReal;

const ping: WorkflowStart = { workflowType: 'pingWorkflow', workflowId: 'ping-1', args: ['x'] };
const booking: WorkflowStart<'bookingWorkflow'> = {
  workflowType: 'bookingWorkflow',
  workflowId: 'booking-1',
  args: [{ meetingId: 'm', teamId: 't' }],
};

// @ts-expect-error a workflow that does not exist
const unknownName: WorkflowStart = { workflowType: 'noSuchWorkflow', workflowId: 'x', args: [] };
// @ts-expect-error the booking workflow takes {meetingId, teamId}
const wrongArgs: WorkflowStart = { workflowType: 'bookingWorkflow', workflowId: 'x', args: [{ meetingId: 1 }] };
// @ts-expect-error an argument is missing
const missingArgs: WorkflowStart = { workflowType: 'pingWorkflow', workflowId: 'x', args: [] };
// @ts-expect-error a signal definition is not a workflow
const notAWorkflow: WorkflowName = 'exitSignal';

// A direct handler receives its workflow's own arguments and returns that workflow's arguments.
const firstAttempt: DirectHandler<'webhookDeliveryWorkflow'> = async (row) =>
  row.args[0].deliveryId ? { start: [row.args[0], { retryIndex: 1, seq: 0 }] } : { done: true };
// @ts-expect-error the webhook delivery's handler cannot handle the ping workflow's rows
const wrongHandler: DirectHandler<'pingWorkflow'> = firstAttempt;

describe('typed outbox', () => {
  test('an Enqueue takes one start or many, each of a real workflow', async () => {
    const seen: string[] = [];
    const enqueue: Enqueue = async (s) => {
      for (const one of Array.isArray(s) ? s : [s]) seen.push(`${one.workflowType}:${one.workflowId}`);
    };
    await enqueue(ping);
    await enqueue([booking]);
    expect(seen).toEqual(['pingWorkflow:ping-1', 'bookingWorkflow:booking-1']);
    // the invalid starts above still exist at run time; only the compiler refuses them
    expect([unknownName, wrongArgs, missingArgs].map((s) => s.workflowType)).toEqual(['noSuchWorkflow', 'bookingWorkflow', 'pingWorkflow']);
    expect(notAWorkflow).toBe('exitSignal');
    // the wrongly typed handler is the same function at run time: it reads a ping's argument as a delivery
    expect(wrongHandler).toBe(firstAttempt);
    expect(sameNames).toBe(true);
    expect(Object.values(sameResults).every(Boolean)).toBe(true);
  });
});
