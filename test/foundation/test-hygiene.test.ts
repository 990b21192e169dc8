/**
 * A guard over the suite itself (rules in hygiene-rules.ts): no test returns early when a browser or
 * tool is missing (it would count as passed; use describeWithBrowser/itWithBrowser), and no date is
 * built from the clock plus whole days outside test/helpers/open-day.ts (it would depend on the day
 * the suite runs). The rules are first shown to catch the patterns they exist for.
 */
import fs from 'node:fs';
import path from 'node:path';
import { findViolations, OPEN_DAY_HELPER } from './hygiene-rules';

const ROOT = path.resolve(__dirname, '..', '..');

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return testFiles(p);
    return /\.(ts|tsx|mts|cts)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const rules = (text: string, file = 'test/x/sample.test.ts') => findViolations(file, text).map((v) => v.rule);
/** The pattern the guard exists for, assembled so that this file does not itself contain it. */
const BAIL_ON_MISSING_BROWSER = ['if (!browser)', 'return;'].join(' ');

describe('the rules catch what they are for', () => {
  it.each([
    [`it('x', async () => {\n  ${BAIL_ON_MISSING_BROWSER}\n  expect(1).toBe(1);\n});`, 'an early return on a missing browser'],
    ["it('x', async () => {\n  if (browserMissing()) return;\n});", 'through a helper'],
    [
      "it.each([1])('x %s', async () => {\n  if (!hasChromium) {\n    console.warn('no chromium');\n    return;\n  }\n});",
      'in it.each, with a warning first',
    ],
    ['beforeAll(async () => {\n  if (!fs.existsSync(radicaleBin)) return;\n  start();\n});', 'in a hook, on a missing tool'],
    ["test('x', () => {\n  if (!process.env.REDIS_URL) return;\n});", 'on a missing environment variable'],
  ])('early return: %#, %s', (code) => {
    expect(rules(code)).toEqual(['early-return']);
  });

  it.each([
    ['new Date(Date.now() + 2 * DAY)'],
    ['new Date(Date.now() + 2 * 86_400_000).toISOString()'],
    ['Date.now() + 3 * 24 * 3600 * 1000'],
    ['Date.now() + 48 * 3600e3'],
    ['Date.now() + days * 86400000'],
    ['Date.now() + (400 + k) * DAY'],
    ['Date.now() + daysAhead * 24 * HOUR'],
    ['1 + Date.now() + 7 * 24 * HOUR'],
    ['new Date().getTime() + DAY'],
    ['DateTime.now().setZone(zone).plus({ days: 10 })'],
    ['DateTime.utc().plus({ days: 2 }).toISODate()'],
    ['d.setUTCDate(d.getUTCDate() + 2)'],
  ])('clock plus whole days: %s', (expr) => {
    expect(rules(`const x = ${expr};`)).toEqual(['clock-days']);
  });

  it('follows a variable set to the clock', () => {
    expect(rules('const t0 = Date.now();\nconst later = t0 + 2 * DAY;')).toEqual(['clock-days']);
  });

  it.each([
    ['Date.now() + 60_000'],
    ['Math.ceil((Date.now() + hoursAhead * HOUR) / HOUR) * HOUR'],
    ['Date.now() + 5 * HOUR'],
    ['DateTime.fromISO(date, { zone }).plus({ days: 1 })'],
    ['start + 2 * DAY'],
    ['Date.now() - 3 * DAY'],
  ])('leaves alone what does not depend on the day: %s', (expr) => {
    expect(rules(`const x = ${expr};`)).toEqual([]);
  });

  it('leaves alone early returns that are not about a missing tool, and the helper itself', () => {
    expect(rules("it('x', async () => {\n  if (route.params.safeParse(bad).success) return;\n});")).toEqual([]);
    expect(rules(`async function poll() {\n  ${BAIL_ON_MISSING_BROWSER}\n}`)).toEqual([]);
    expect(rules('const x = Date.now() + 2 * DAY;', OPEN_DAY_HELPER)).toEqual([]);
  });
});

describe('the suite', () => {
  const files = testFiles(path.join(ROOT, 'test'));

  it('is read whole (the walk finds the helpers and the tests)', () => {
    const rel = files.map((f) => path.relative(ROOT, f));
    expect(rel).toContain(OPEN_DAY_HELPER);
    expect(rel).toContain('test/foundation/test-hygiene.test.ts');
    expect(rel.length).toBeGreaterThan(100);
  });

  it('has no early return on a missing browser or tool, and no clock plus whole days outside the open-day helper', () => {
    const found = files.flatMap((f) => {
      const rel = path.relative(ROOT, f);
      return findViolations(rel, fs.readFileSync(f, 'utf8')).map((v) => `${rel}:${v.line} ${v.rule}: ${v.text}`);
    });
    expect(found).toEqual([]);
  });
});
