import { getExternalWorkflowHandle, setCurrentDetails } from '@temporalio/workflow';
import { exitSignal, resumeSignal, type SignalsInput } from './contract';

/**
 * Started through the outbox by a transaction that exits or resumes enrollments: delivers the
 * signal to each `enrollment-<id>` workflow. One that has ended (or never started) is skipped:
 * its database row is the truth, and the enrollment workflow re-reads it before every send.
 */
export async function sequenceSignalsWorkflow(input: SignalsInput): Promise<{ delivered: number }> {
  let delivered = 0;
  setCurrentDetails(`signalling ${input.signal.name} to ${input.workflowIds.length} enrollment(s)`);
  for (let i = 0; i < input.workflowIds.length; i += 50) {
    await Promise.all(
      input.workflowIds.slice(i, i + 50).map(async (id) => {
        try {
          const handle = getExternalWorkflowHandle(id);
          if (input.signal.name === 'exit') await handle.signal(exitSignal, { reason: input.signal.reason });
          else await handle.signal(resumeSignal);
          delivered++;
        } catch {
          // the workflow has ended or was never started: nothing to stop
        }
      }),
    );
  }
  return { delivered };
}
