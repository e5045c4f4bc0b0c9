// @idea-kit/protocol compiles generated/ and runtime/ with NodeNext (packages/protocol/tsconfig.build.json):
// there a relative import must name the .js file, or the package fails to build and to load in Node.
// This catches it in the unit run instead of the packaging test.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
// A statement's `from` (on its import/export line, or after the `}` closing a multi-line one), a dynamic
// import, or a bare import: not an import written inside a string (a schema example holds some).
const SPECIFIER =
  /(?:^\s*(?:import|export)\b[^"'\n]*\bfrom\s*|^\s*\}\s*from\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']*)["']/gm;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
}

function extensionlessImports(text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((m) => m[1]!).filter((s) => !s.endsWith('.js') && !s.endsWith('.json'));
}

describe('relative imports in what @idea-kit/protocol compiles', () => {
  it('the check sees an extensionless import', () => {
    expect(
      extensionlessImports(
        'import { a } from "./a";\nexport * from "../b.js";\nconst m = import("./c");\nimport {\n  d,\n} from "./d";\n' +
          'export { e } from "./e";\nconst example = "import { f } from \'./f\'";\n',
      ),
    ).toEqual(['./a', './c', './d', './e']);
  });

  it.each(['runtime', 'generated'])('every relative import in %s/ names its .js file', (dir) => {
    const bad = sources(dir).flatMap((f) =>
      extensionlessImports(readFileSync(join(ROOT, f), 'utf8')).map((s) => `${f}: ${s}`),
    );
    expect(bad).toEqual([]);
  });
});
