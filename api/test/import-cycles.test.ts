import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Issue 49's "no import circle is left", kept: every module of the packages' src, type-only imports
 * included (they tie modules together for a reader as much as runtime ones do), resolved as the
 * compiler resolves them (workspace packages through their `cellwise-source` exports), must not reach
 * itself again. A shared type goes to the module that owns it, or a small one both sides import.
 */
const ROOT = path.resolve(__dirname, '../..');
const PACKAGES = fs
  .readdirSync(ROOT)
  .filter((name) => name === 'api' || name === 'shell' || name.startsWith('shared-') || name.startsWith('mfe-'))
  .filter((name) => fs.existsSync(path.join(ROOT, name, 'src')));

const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  customConditions: ['cellwise-source'],
  resolveJsonModule: true,
  jsx: ts.JsxEmit.ReactJSX,
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [fs.realpathSync(file)] : [];
  });
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, OPTIONS, ts.sys).resolvedModule?.resolvedFileName;
      if (resolved === undefined || !fs.existsSync(resolved)) continue;
      const target = fs.realpathSync(resolved);
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Tarjan's strongly connected components of more than one module (or one importing itself): each is a circle. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import circles', () => {
  test('the scan reads every package and would see a circle', () => {
    expect(PACKAGES).toEqual(expect.arrayContaining(['api', 'shell', 'shared-ui', 'shared-auth', 'mfe-monitoring']));
    expect(
      circles(
        new Map([
          ['a', ['b']],
          ['b', ['a']],
          ['c', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b']]);
  });

  test('no module of any package reaches itself again through its imports', () => {
    const files = PACKAGES.flatMap((name) => sourceFiles(path.join(ROOT, name, 'src')));
    const graph = importGraph(files);
    // Guards against a resolver that silently resolves nothing: workspace imports must be followed too.
    const routes = graph.get(fs.realpathSync(path.join(ROOT, 'api/src/routes/users.ts'))) ?? [];
    expect(routes).toContain(fs.realpathSync(path.join(ROOT, 'shared-auth/src/policy.ts')));
    expect(circles(graph).map((circle) => circle.map((file) => path.relative(ROOT, file)))).toEqual([]);
  });
});
