import { chromium, type Browser } from 'playwright-core';
import { chromiumPath } from './browser-path';

/**
 * Browser tests run in headless Chromium (Debian's, or CHROMIUM_PATH). Without it they are
 * reported as skipped, not passed: test/setup/global-setup.ts prints why, once, and fails the run
 * instead when REQUIRE_BROWSER=1 (as .ci/run sets).
 */
const executablePath = chromiumPath();

export const hasChromium = executablePath !== null;

/** `it` when Chromium is installed, else `it.skip` (chosen once, when the file loads). */
export const itWithBrowser: jest.It = executablePath ? it : it.skip;

/** `describe` when Chromium is installed, else `describe.skip`: every test inside is reported as skipped. */
export const describeWithBrowser: jest.Describe = executablePath ? describe : describe.skip;

/** Headless Chromium with the flags every browser test uses. Call it only from tests declared with itWithBrowser (or their hooks). */
export async function launchChromium(): Promise<Browser> {
  if (!executablePath) throw new Error('Chromium is not installed (apt-get install chromium, or set CHROMIUM_PATH)');
  return chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
