import fs from 'node:fs';

/** Debian's chromium, or CHROMIUM_PATH. Null when absent (browser tests then say loudly that they did not run). */
export function chromiumPath(): string | null {
  for (const p of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (p && fs.existsSync(p)) return p;
  }
  return null;
}
