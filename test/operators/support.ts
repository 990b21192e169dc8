import type { TestWorkflowEnvironment } from '@temporalio/testing';

/** What `__temporal_workflow_metadata` answers (the SDK's built-in query). */
export interface WorkflowMetadata {
  currentDetails?: string;
  definition?: { type?: string; queryDefinitions?: Array<{ name?: string }>; signalDefinitions?: Array<{ name?: string }> };
}

/** A workflow's summary and details (describe() user metadata) and its current details (the metadata query). */
export async function readMetadata(env: TestWorkflowEnvironment, workflowId: string) {
  const handle = env.client.workflow.getHandle(workflowId);
  const d = await handle.describe();
  const meta = await handle.query<WorkflowMetadata>('__temporal_workflow_metadata');
  return {
    type: d.type,
    summary: await d.staticSummary(),
    details: await d.staticDetails(),
    current: meta.currentDetails ?? '',
    searchAttributes: d.searchAttributes,
  };
}

/** Poll the current details until they match (the workflow reaches its waiting point soon after its start). */
export async function eventuallyDetails(env: TestWorkflowEnvironment, workflowId: string, pattern: RegExp) {
  let last = await readMetadata(env, workflowId);
  for (let i = 0; i < 100 && !pattern.test(last.current); i++) {
    await new Promise((r) => setTimeout(r, 100));
    last = await readMetadata(env, workflowId);
  }
  return last;
}

export { waitStarted } from '../helpers/temporal';
