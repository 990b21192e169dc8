import fs from 'node:fs';

/**
 * CHROMIUM_PATH when set (only that one: `CHROMIUM_PATH=/nonexistent` simulates a machine without
 * a browser), else Debian's chromium. Null when absent: the browser tests are then skipped.
 */
export function chromiumPath(): string | null {
  const candidates =
    process.env.CHROMIUM_PATH !== undefined ? [process.env.CHROMIUM_PATH] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
  for (const p of candidates) {
    if (p && fs.existsSync(p)) return p;
  }
  return null;
}
