// The fixture workspace's content, as data: every file of every commit and the state laid over HEAD.
// Fixtures under conformance/fixtures/ hard-code line/character positions into these texts, so any edit
// here must be mirrored there (the runner's own tests check the key positions, see test/conformance/).
import { solutionFiles } from './content-solution';
import type { FileSet } from './file-set';

/** A file write: path relative to the workspace root ("/"-separated) → full text. */
export type { FileSet } from './file-set';

export interface CommitSpec {
  /** Stable name; the runner exposes the hash as `${commit.<name>}` and `${short.<name>}`. */
  name: string;
  message: string;
  author: { name: string; email: string };
  /** ISO 8601 with offset; used for both author and committer dates so hashes are deterministic. */
  date: string;
  files: FileSet;
  remove?: string[];
}

const ada = { name: 'Ada Lovelace', email: 'ada@example.invalid' };
const grace = { name: 'Grace Hopper', email: 'grace@example.invalid' };

// --- src/shapes.ts: three versions (c1, c3, c6); commits c2, c4, c5, c7 do not touch it -------------
const shapesV1 = `export interface Shape {
  readonly name: string;
  area(): number;
}

export enum Color {
  Red = 'red',
  Green = 'green',
  Blue = 'blue',
}

export class Circle implements Shape {
  readonly name = 'circle';
  constructor(public radius: number, public color: Color = Color.Red) {}
  area(): number {
    return Math.PI * this.radius * this.radius;
  }
}

export function totalArea(shapes: Shape[]): number {
  return shapes.reduce((sum, s) => sum + s.area(), 0);
}
`;

const shapesV2 = shapesV1.replace(
  `    return Math.PI * this.radius * this.radius;
  }
}`,
  `    return Math.PI * this.radius * this.radius;
  }
  scale(factor: number): Circle {
    return new Circle(this.radius * factor, this.color);
  }
}`,
);

/** HEAD version of src/shapes.ts (line numbers below are 0-based). */
const shapesV3 = `/** Geometric shapes used across the fixture project. */
${shapesV2}`;

const mainTs = `import { Circle, Color, totalArea } from './shapes';
import { describeShape } from './format';

const small = new Circle(1);
const large = new Circle(3, Color.Blue);
const shapes = [small, large, small.scale(2)];

console.log(totalArea(shapes));
console.log(describeShape(large));
`;

const formatTs = `import { Shape, Circle } from './shapes';

export function describeShape(shape: Shape): string {
  return \`\${shape.name} with area \${shape.area().toFixed(2)}\`;
}

export const defaultCircle = new Circle(2);
`;

const brokenTs = `import { Circle } from './shapes';

const c = new Circle(5);
const label: number = c.name;
export { label };
`;

const unusedTs = `export function compute(input: number): number {
  const unusedValue = input * 2;
  return input + 1;
}
`;

const configV1 = `export const config = {
  retries: 3,
  verbose: false,
};
`;
const configV2 = `export const config = {
  retries: 5,
  verbose: false,
  timeoutMs: 1000,
};
`;
/** Uncommitted working-tree version of src/config.ts (HEAD has configV2). */
const configWorking = `export const config = {
  retries: 5,
  verbose: true,
  timeoutMs: 1000,
};
`;

/** Untracked (overlay): a second implementation of Shape, and a variable whose type is declared elsewhere. */
const polygonTs = `import { Shape } from './shapes';

/** Square: the second implementation of Shape. */
export class Square implements Shape {
  readonly name = 'square';
  constructor(public side: number) {}
  area(): number {
    return this.side * this.side;
  }
}

export const unit: Shape = new Square(1);
`;

/**
 * Untracked (overlay), for the diagnostics/changed cases alone: no other case opens, lists or searches
 * them (their names have no "a", so the findFiles cases with query "a" do not list them either).
 * pristine.ts: nothing opens it before events/diagnostics-after-replace breaks it with an edit/replace
 * (and fixes it again); rewritten.ts: events/diagnostics-after-disk-write rewrites it on disk.
 */
const probePristineTs = `// Broken and fixed by an edit/replace in one conformance case only: nothing else opens this file.
export const probeLimit: number = 10;
`;
const probeRewrittenTs = `// Rewritten on disk by the conformance runner in one case only, after a diag/list of it.
export const probeCount: number = 3;
`;

const searchTxt = `alpha beta gamma
Alpha Beta Gamma
ALPHA BETA GAMMA
alphabet alphanumeric alpha-numeric
order-1234 order-5678 order-90
date: 2026-03-02
the needle is here
a.b.c literal dots and a+b
`;

const releaseNotesV1 = `# Release notes

- first release, with a needle in the haystack
`;
const releaseNotesV2 = `# Release notes

- first release, with a needle in the haystack
- second release
`;

const journalMd = `# Journal

status: draft-0
`;

const readmeV1 = `# Fixture project

Shapes and helpers for the IDEA conformance suite.
`;
const readmeV2 = `# Fixture project

Shapes and helpers for the IDEA conformance suite.
See src/shapes.ts.
`;

const tsconfig = `{
  "compilerOptions": {
    "target": "ES2020",
    "module": "commonjs",
    "strict": true,
    "noUnusedLocals": true,
    "noEmit": true
  },
  "include": ["src"]
}
`;

export const gitignore = `node_modules/
.vscode/
*.log
`;

export const commits: CommitSpec[] = [
  {
    name: 'initial',
    message: 'Initial commit: shapes and readme',
    author: ada,
    date: '2026-01-05T09:00:00+00:00',
    files: { 'src/shapes.ts': shapesV1, 'README.md': readmeV1, 'tsconfig.json': tsconfig, '.gitignore': gitignore },
  },
  {
    name: 'main',
    message: 'Add main entry point',
    author: grace,
    date: '2026-01-06T10:30:00+00:00',
    files: {
      'src/main.ts': mainTs
        .replace("import { describeShape } from './format';\n", '')
        .replace('console.log(describeShape(large));\n', '')
        .replace(', small.scale(2)', ''),
      'src/config.ts': configV1,
    },
  },
  {
    name: 'scale',
    message: 'Add Circle.scale',
    author: ada,
    date: '2026-01-07T11:00:00+00:00',
    files: {
      'src/shapes.ts': shapesV2,
      'src/main.ts': mainTs
        .replace("import { describeShape } from './format';\n", '')
        .replace('console.log(describeShape(large));\n', ''),
    },
  },
  {
    name: 'texts',
    message: 'Add text files for search',
    author: grace,
    date: '2026-01-08T12:15:00+00:00',
    files: { 'text/search.txt': searchTxt, 'docs/release notes.md': releaseNotesV1, 'notes/journal.md': journalMd },
  },
  {
    name: 'examples',
    message: 'Add format helpers and diagnostics examples',
    author: ada,
    date: '2026-01-09T13:45:00+00:00',
    files: {
      'src/format.ts': formatTs,
      'src/main.ts': mainTs,
      'src/broken.ts': brokenTs,
      'src/unused.ts': unusedTs,
      'src/config.ts': configV2,
    },
  },
  {
    name: 'docs',
    message: 'Document shapes',
    author: grace,
    date: '2026-01-10T14:00:00+00:00',
    files: { 'src/shapes.ts': shapesV3, 'README.md': readmeV2 },
  },
  {
    name: 'notes',
    message: 'Update release notes',
    author: ada,
    date: '2026-01-11T15:20:00+00:00',
    files: { 'docs/release notes.md': releaseNotesV2 },
  },
];

/** Files that exist in the fresh state but are not committed (ignored, untracked or modified). */
export const overlay: FileSet = {
  'src/config.ts': configWorking,
  // Untracked: nav/implementation and nav/typeDefinition cases (its name keeps it out of findFiles cases).
  'src/polygon.ts': polygonTs,
  // Untracked: the diagnostics/changed cases only (outside tsconfig's include: an inferred project).
  'probe/pristine.ts': probePristineTs,
  'probe/rewritten.ts': probeRewrittenTs,
  // Untracked: the symbol and completeness cases of v0.1.8 (a solution-style tsconfig: content-solution.ts).
  ...solutionFiles,
  // Ignored by .gitignore: searches that exclude node_modules must not see it.
  'node_modules/fake-pkg/index.js': `module.exports = 'needle in node_modules';\n`,
  'node_modules/fake-pkg/package.json': `{ "name": "fake-pkg", "version": "1.0.0" }\n`,
  // Hidden by files.exclude in .vscode/settings.json.
  'hidden/secret-haystack.txt': `haystack hidden by files.exclude\n`,
  // Outside-the-workspace probe target is created by the runner in the parent folder, never here.
};

/** Settings the fixture needs in .vscode/settings.json (merged: the server writes its own keys there). */
export const workspaceSettings: Record<string, unknown> = {
  'files.exclude': { '**/hidden': true },
};

export const BASE_TAG = 'fixture-base';
