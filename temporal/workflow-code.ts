import fs from 'node:fs';
import path from 'node:path';

/** The file `npm run build` (scripts/build.js) writes the prebuilt workflow bundle to, at the root of dist/. */
export const WORKFLOW_BUNDLE_FILE = 'workflow-bundle.js';

export type WorkflowCode = { workflowBundle: { codePath: string } } | { workflowsPath: string };

/**
 * Where a worker takes its workflow code from (Temporal's production advice: a bundle built ahead
 * of time, so that the worker does not run webpack at every start).
 * - `setting` is WORKFLOW_BUNDLE_PATH: a path names the bundle (it must exist); `none` bundles the
 *   sources at start.
 * - Unset: the bundle beside the compiled code (`dist/workflow-bundle.js`, one level above
 *   `binDir`) when the worker runs compiled and the file exists; else the sources at start (tsx).
 */
export function workflowCode(setting: string | undefined, binDir: string): WorkflowCode {
  const sources = { workflowsPath: require.resolve(path.join(binDir, '..', 'workflows')) };
  if (setting === 'none') return sources;
  if (setting) {
    if (!fs.existsSync(setting)) throw new Error(`WORKFLOW_BUNDLE_PATH=${setting}: no such file (run npm run build)`);
    return { workflowBundle: { codePath: path.resolve(setting) } };
  }
  const beside = path.join(binDir, '..', WORKFLOW_BUNDLE_FILE);
  return fs.existsSync(beside) ? { workflowBundle: { codePath: beside } } : sources;
}
