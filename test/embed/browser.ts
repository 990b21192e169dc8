import path from 'node:path';
import type { Page } from 'playwright-core';

/** Shared set-up of the embed browser tests: Chromium, artifacts, host-page helpers. */
export const ARTIFACTS = path.resolve(__dirname, '..', '..', 'test-artifacts');

export interface HostEvent {
  type: string;
  target: string;
  detail: Record<string, string>;
}

export interface HostMessage {
  origin: string;
  data: { fss?: number; type?: string; [k: string]: unknown };
}

type HostWindow = { fssEvents: HostEvent[]; fssMessages: HostMessage[] };

export const hostEvents = (page: Page) => page.evaluate(() => (window as unknown as HostWindow).fssEvents);
export const hostMessages = (page: Page) => page.evaluate(() => (window as unknown as HostWindow).fssMessages);

/** Wait until the host page saw the DOM CustomEvent `type` (on `target`, when given) and return it. */
export async function waitForHostEvent(page: Page, type: string, target?: string): Promise<HostEvent> {
  await page.waitForFunction(
    ([t, id]) => (window as unknown as HostWindow).fssEvents.some((e) => e.type === t && (!id || e.target === id)),
    [type, target ?? ''] as const,
  );
  return (await hostEvents(page)).find((e) => e.type === type && (!target || e.target === target))!;
}

/** Records, in every frame, any read or write of cookies and storage (the embed must cause none on the host). */
export const STORAGE_SPY = `(() => {
  const touched = [];
  const c = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  Object.defineProperty(Document.prototype, 'cookie', {
    configurable: true,
    get() { touched.push('cookie'); return c.get.call(this); },
    set(v) { touched.push('cookie='); c.set.call(this, v); },
  });
  for (const name of ['localStorage', 'sessionStorage', 'indexedDB']) {
    const d = Object.getOwnPropertyDescriptor(window, name);
    if (d && d.get) Object.defineProperty(window, name, { configurable: true, get() { touched.push(name); return d.get.call(this); } });
  }
  window.__storageTouched = touched;
})();`;
