/**
 * Two ways a test stops telling the truth, found with the TypeScript parser (used by
 * test-hygiene.test.ts over every file under test/):
 *
 * - `early-return`: a test or hook that returns early when a browser or tool is missing
 *   (a bare `return` under a check that the browser is absent): it is then reported as passed. Declare it with
 *   `describeWithBrowser`/`itWithBrowser` (test/helpers/browser.ts), or the tool's own
 *   describe-or-skip helper, so that it is reported as skipped.
 * - `clock-days`: a date built from the clock plus whole days (`Date.now() + 2 * DAY`,
 *   `DateTime.now().plus({ days: 2 })`, `d.setDate(d.getDate() + 2)`): it lands on a weekend, a DST
 *   day or another local date depending on when the suite runs. Ask test/helpers/open-day.ts for a
 *   day the fixture offers (`nextOpenDay`), or for an instant when any day will do (`instantDaysAhead`).
 */
import ts from 'typescript';

export interface Violation {
  rule: 'early-return' | 'clock-days';
  line: number;
  text: string;
}

/** The only file allowed to add whole days to the clock. */
export const OPEN_DAY_HELPER = 'test/helpers/open-day.ts';

const DAY_MS = 86_400_000;
const KNOWN: Record<string, number> = {
  SECOND: 1000,
  MINUTE: 60_000,
  HOUR: 3_600_000,
  DAY: DAY_MS,
  DAYS: DAY_MS,
  ONE_DAY: DAY_MS,
  WEEK: 7 * DAY_MS,
};
const DAY_NAME = /^(ONE_)?DAYS?(_MS)?$|_DAYS?$|^WEEKS?$/i;

/** Names a missing tool is tested by, in the condition of an early return. */
const TOOLISH =
  /browser|chromium|playwright|radicale|redis|python|temporal|binar|install|availab|missing|exists|found|tool|skip|process\.env/i;

/** Test and hook callers whose callbacks must not return early on a missing tool. */
const TEST_CALLS = /^(it|test|xit|fit|itWithBrowser|beforeAll|beforeEach|describe|describeWithBrowser|describeWithRedis)$/;

function calleeName(expr: ts.Expression): string | null {
  // a plain call, an .each(...)(...) table, a modifier such as .only/.skip, and a tagged .each`…`(...)
  let e: ts.Expression = expr;
  for (;;) {
    if (ts.isIdentifier(e)) return e.text;
    if (ts.isPropertyAccessExpression(e)) e = e.expression;
    else if (ts.isCallExpression(e)) e = e.expression;
    else if (ts.isTaggedTemplateExpression(e)) e = e.tag;
    else return null;
  }
}

/** A numeric value when `e` is built from literals and the usual unit constants. */
function numeric(e: ts.Expression): number | undefined {
  if (ts.isParenthesizedExpression(e)) return numeric(e.expression);
  if (ts.isNumericLiteral(e)) return Number(e.text.replace(/_/g, ''));
  if (ts.isIdentifier(e)) return KNOWN[e.text];
  if (ts.isBinaryExpression(e)) {
    const a = numeric(e.left);
    const b = numeric(e.right);
    if (a === undefined || b === undefined) return undefined;
    if (e.operatorToken.kind === ts.SyntaxKind.AsteriskToken) return a * b;
    if (e.operatorToken.kind === ts.SyntaxKind.PlusToken) return a + b;
  }
  return undefined;
}

/** The factors of a product: `a * (b * c)` → [a, b, c]. */
function factors(e: ts.Expression): ts.Expression[] {
  if (ts.isParenthesizedExpression(e)) return factors(e.expression);
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.AsteriskToken) return [...factors(e.left), ...factors(e.right)];
  return [e];
}

/**
 * Whether `e` is a whole number of days in milliseconds: a constant, or a product whose known
 * factors make a whole day (`n * 24 * HOUR`, `days * 86_400_000`) or that names a day (`n * DAY`).
 */
function wholeDays(e: ts.Expression): boolean {
  const n = numeric(e);
  if (n !== undefined) return n !== 0 && n % DAY_MS === 0;
  const fs = factors(e);
  if (fs.some((f) => ts.isIdentifier(f) && DAY_NAME.test(f.text))) return true;
  const known = fs.map(numeric).filter((x): x is number => x !== undefined);
  if (fs.length > 1 && known.length > 0) {
    const k = known.reduce((a, b) => a * b, 1);
    return k % DAY_MS === 0;
  }
  return false;
}

const isCallOf = (e: ts.Expression, obj: string, method: string, noArgs = true) =>
  ts.isCallExpression(e) &&
  ts.isPropertyAccessExpression(e.expression) &&
  ts.isIdentifier(e.expression.expression) &&
  e.expression.expression.text === obj &&
  e.expression.name.text === method &&
  (!noArgs || e.arguments.length === 0);

/** `Date.now()`, `new Date().getTime()`, `+new Date()`, or a variable set to one of them. */
function isNow(e: ts.Expression, nowVars: Set<string>): boolean {
  if (ts.isParenthesizedExpression(e)) return isNow(e.expression, nowVars);
  if (isCallOf(e, 'Date', 'now')) return true;
  if (ts.isIdentifier(e)) return nowVars.has(e.text);
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'getTime') {
    const target = e.expression.expression;
    return (
      ts.isNewExpression(target) && ts.isIdentifier(target.expression) && target.expression.text === 'Date' && !target.arguments?.length
    );
  }
  return false;
}

/** The terms of a chain of `+`: `a + b + c` → [a, b, c]. */
function terms(e: ts.Expression): ts.Expression[] {
  if (ts.isParenthesizedExpression(e)) return terms(e.expression);
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) return [...terms(e.left), ...terms(e.right)];
  return [e];
}

/** Whether a luxon chain starts at the clock: DateTime.now(), DateTime.utc(), DateTime.local() with no arguments. */
function chainFromClock(e: ts.Expression): boolean {
  for (let x: ts.Expression = e; ;) {
    if (isCallOf(x, 'DateTime', 'now') || isCallOf(x, 'DateTime', 'utc') || isCallOf(x, 'DateTime', 'local')) return true;
    if (ts.isCallExpression(x)) x = x.expression;
    else if (ts.isPropertyAccessExpression(x)) x = x.expression;
    else if (ts.isParenthesizedExpression(x)) x = x.expression;
    else return false;
  }
}

const hasDaysKey = (arg: ts.Expression | undefined) =>
  !!arg &&
  ts.isObjectLiteralExpression(arg) &&
  arg.properties.some((p) => p.name && ts.isIdentifier(p.name) && /^(days?|weeks?|months?)$/.test(p.name.text));

function isEarlyReturn(s: ts.Statement): boolean {
  if (!ts.isIfStatement(s) || !TOOLISH.test(s.expression.getText())) return false;
  const then = s.thenStatement;
  if (ts.isReturnStatement(then)) return true;
  return ts.isBlock(then) && then.statements.some((x) => ts.isReturnStatement(x));
}

/** The violations in one file's text. `file` is its path from the repository root. */
export function findViolations(file: string, text: string): Violation[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: Violation[] = [];
  const add = (rule: Violation['rule'], node: ts.Node) =>
    out.push({
      rule,
      line: src.getLineAndCharacterOfPosition(node.getStart()).line + 1,
      text: node.getText().split('\n')[0].slice(0, 120),
    });
  const nowVars = new Set<string>();
  const clockAllowed = file === OPEN_DAY_HELPER;

  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && isNow(node.initializer, nowVars)) {
      nowVars.add(node.name.text);
    }
    if (!clockAllowed) {
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken && !isPlusChainInner(node)) {
        const t = terms(node);
        if (t.some((x) => isNow(x, nowVars)) && t.some((x) => !isNow(x, nowVars) && wholeDays(x))) add('clock-days', node);
      }
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const m = node.expression.name.text;
        if (m === 'plus' && hasDaysKey(node.arguments[0]) && chainFromClock(node.expression.expression)) add('clock-days', node);
        if (m === 'setDate' || m === 'setUTCDate') add('clock-days', node);
      }
    }
    if (ts.isCallExpression(node) && TEST_CALLS.test(calleeName(node.expression) ?? '')) {
      for (const arg of node.arguments) {
        if ((ts.isArrowFunction(arg) || ts.isFunctionExpression(arg)) && ts.isBlock(arg.body)) {
          for (const s of arg.body.statements) if (isEarlyReturn(s)) add('early-return', s);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return out;
}

/** A `+` inside a larger `+` chain: the outermost one reports it. */
function isPlusChainInner(node: ts.BinaryExpression): boolean {
  let p: ts.Node = node.parent;
  while (ts.isParenthesizedExpression(p)) p = p.parent;
  return ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.PlusToken;
}
