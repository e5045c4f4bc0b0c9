// idea-server and the server core run without an editor: no file in idea-server/ or server-core/, nor
// any file they import by relative path, may import the `vscode` module.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SOURCE = /\.(?:[cm]?[jt]s|tsx)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.name === 'node_modules' || e.name === 'dist') return [];
    return e.isDirectory() ? filesUnder(p) : SOURCE.test(e.name) ? [p] : [];
  });
}

function resolveRelative(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    `${base}.mts`,
    base.replace(/\.js$/, '.ts'),
    join(base, 'index.ts'),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Files (reached from `roots` through relative imports) that import vscode, as "file ← importer chain". */
function vscodeImporters(roots: string[]): string[] {
  const seen = new Set<string>();
  const bad: string[] = [];
  const queue = roots.map((f) => ({ file: f, via: [] as string[] }));
  while (queue.length > 0) {
    const { file, via } = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    // The compiler's own scan: import/export/require specifiers, not the text of strings and comments
    // (generated tool descriptions mention VS Code's commands).
    const specs = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((f) => f.fileName);
    for (const spec of specs) {
      if (spec === 'vscode' || spec.startsWith('vscode/'))
        bad.push([file, ...via].map((f) => relative(ROOT, f)).join(' ← '));
      else if (spec.startsWith('.')) {
        const next = resolveRelative(file, spec);
        if (next) queue.push({ file: next, via: [file, ...via] });
      }
    }
  }
  return bad;
}

describe('idea-server and server-core import no vscode', () => {
  it.each(['idea-server', 'server-core'])(
    'holds for every file in %s/ and every file they import by relative path',
    (dir) => {
      const roots = filesUnder(join(ROOT, dir));
      expect(roots.length).toBeGreaterThan(0);
      expect(vscodeImporters(roots)).toEqual([]);
    },
  );

  it('the check finds an import of vscode, also through a relative import', () => {
    // The extension's adapters do import vscode: reached from one of them, it must be reported.
    const adapter = join(ROOT, 'extension', 'src', 'language-features.ts');
    expect(vscodeImporters([adapter])).toContain('extension/src/language-features.ts');
    const found = vscodeImporters([join(ROOT, 'extension', 'src', 'host.ts')]);
    expect(found.some((line) => line.startsWith('extension/src/language-server.ts ← '))).toBe(true);
  });
});
