/** `<dataDir>/pg-<name>.json`: the port a cluster listens on and where the cluster lives. */
import fs from 'node:fs';

export interface ClusterState {
  port: number | null;
  /** Absolute path of the cluster; outside `<dataDir>` when the `postgres` user cannot reach it (see placement.ts). */
  clusterDir: string | null;
}

export function readState(stateFile: string): ClusterState {
  let raw: { port?: unknown; cluster_dir?: unknown } = {};
  try {
    raw = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as typeof raw;
  } catch {
    /* none yet, or unreadable: start afresh */
  }
  const port = typeof raw.port === 'number' && Number.isInteger(raw.port) && raw.port > 0 && raw.port < 65536 ? raw.port : null;
  const clusterDir = typeof raw.cluster_dir === 'string' && raw.cluster_dir.startsWith('/') ? raw.cluster_dir : null;
  return { port, clusterDir };
}

export function writeState(stateFile: string, state: ClusterState): void {
  const tmp = `${stateFile}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ port: state.port, cluster_dir: state.clusterDir }, null, 2) + '\n');
  fs.renameSync(tmp, stateFile);
}
