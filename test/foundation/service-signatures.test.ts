// Services take (deps, input) (docs/architecture.md "A use case"): read every exported function in
// services/ with the TypeScript parser and hold its parameters to the two shapes the layer allows.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '../..');

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

interface Fn {
  where: string;
  params: Array<{ name: string; type: string }>;
}

function exportedFunctions(): Fn[] {
  const out: Fn[] = [];
  for (const file of files(path.join(root, 'services'))) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const exported = (node: ts.Node) =>
      ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    const push = (name: string, fn: ts.SignatureDeclarationBase) =>
      out.push({
        where: `${path.relative(root, file)} ${name}`,
        params: fn.parameters.map((p) => ({ name: p.name.getText(), type: p.type?.getText() ?? '' })),
      });
    source.forEachChild((node) => {
      if (!exported(node)) return;
      if (ts.isFunctionDeclaration(node) && node.name) push(node.name.text, node);
      // export const f = (…) => … and export const f = function (…) { … }
      if (ts.isVariableStatement(node))
        for (const d of node.declarationList.declarations) {
          const init = d.initializer;
          if (init && ts.isIdentifier(d.name) && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) push(d.name.text, init);
        }
    });
  }
  return out;
}

const fns = exportedFunctions();
const DB_HANDLE = /^(Db|Executor|Knex\.Transaction)$/;

describe('service signatures', () => {
  test('the scan finds the services, arrow functions included', () => {
    expect(fns.length).toBeGreaterThan(150);
    expect(fns.some((f) => f.where === 'services/scheduling/claim-slot.ts slotUnavailable')).toBe(true);
    expect(fns.find((f) => f.where.endsWith('scheduling/booking.ts book'))?.params.map((p) => p.name)).toEqual(['deps', 'req']);
  });

  test('no use case takes a Koa context', () => {
    expect(fns.filter((f) => f.params.some((p) => /^(Context|ParameterizedContext)\b/.test(p.type))).map((f) => f.where)).toEqual([]);
  });

  test('a use case is (deps, input): deps first, one input object after it, nothing more', () => {
    const bad = fns.filter((f) => {
      const at = f.params.findIndex((p) => p.name === 'deps');
      return at > 0 || (at === 0 && f.params.length > 2);
    });
    expect(bad.map((f) => f.where)).toEqual([]);
  });

  test('a helper that joins the caller’s transaction is (trx, input) or (trx, enqueue, input)', () => {
    const bad = fns.filter((f) => {
      if (!DB_HANDLE.test(f.params[0]?.type ?? '')) return false;
      const rest = f.params.slice(1);
      if (rest[0]?.type === 'Enqueue') rest.shift();
      return rest.length > 1;
    });
    expect(bad.map((f) => `${f.where}(${f.params.map((p) => p.name).join(', ')})`)).toEqual([]);
  });
});
