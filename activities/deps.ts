import type { WorkerDeps } from '../services/deps';

/** What activities may reach: the worker's deps. Tests pass their own (a real SMTP server, a local HTTP receiver…). */
export type ActivityDeps = WorkerDeps;
