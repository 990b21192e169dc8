/**
 * `npm run dev`'s supervision (bin/dev/supervise.ts) on real child processes: a child that exits
 * on its own is restarted with the reason printed, and one that keeps failing ends the launcher
 * after RESTART_LIMIT tries. (A Ctrl-C's stop is test/foundation/dev-launcher.test.ts.)
 */
import { startManaged, type Managed } from '../../bin/dev/managed';
import { RESTART_LIMIT, supervise } from '../../bin/dev/supervise';

function capture(): { lines: string[]; restore(): void } {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return { lines, restore: () => spy.mockRestore() };
}

it('restarts a child that exits with an error, then stops everything when it keeps failing', async () => {
  const out = capture();
  const children: Managed[] = [];
  try {
    await new Promise<void>((resolve) => {
      supervise({
        name: 'flaky',
        start: () => startManaged('flaky', 33, process.execPath, ['-e', 'process.exit(3)'], process.env),
        started: (m) => children.push(m),
        stopping: () => false,
        giveUp: resolve,
        firstWaitMs: 1,
      });
    });
  } finally {
    out.restore();
  }
  expect(children).toHaveLength(RESTART_LIMIT);
  const said = out.lines.join('');
  expect(said).toContain('flaky exited unexpectedly (exit code 3): restarting it in');
  expect(said).toContain(`(${RESTART_LIMIT - 1} of ${RESTART_LIMIT} tries)`);
  expect(said).toContain(`flaky exited unexpectedly (exit code 3), ${RESTART_LIMIT} times in a row: stopping everything`);
});
