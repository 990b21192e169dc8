import { proxyActivities, setCurrentDetails } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { ping } = proxyActivities<Pick<Activities, 'ping'>>({ startToCloseTimeout: '10s' });

/** A diagnostic workflow: runs one activity. Used to check the worker and the outbox end to end. */
export async function pingWorkflow(token: string): Promise<string> {
  setCurrentDetails('ping: running the ping activity');
  return ping(token);
}
