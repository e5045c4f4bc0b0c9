// The part-2 commands as a person types them: the built CLI as a process, `--headless` (idea-server
// in-process for each command, the TypeScript language server behind it) on a small workspace in a
// temporary folder. idea apply from a file and from stdin (dry run first), its mistakes named by file
// and JSON path; idea fix listing the code actions at a line and applying one (dry run unless --yes);
// idea format; idea mv with the importer updated; idea transactions; idea undo of each write, newest
// first, back to the bytes it started from. The undo log lives in the user's state folder, so it
// outlasts each command's server.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTarget } from '../../scripts/build';
import { within } from '../support/processes';

/** One command: a headless server starts, its language server loads this small project, it answers. */
const COMMAND_MS = 45_000;

let cli: string;
let tmp: string;
let ws: string;
let home: string;

const SHAPES = `export function area(r: number): number {
  return Math.PI * r * r;
}
`;
const MAIN = `import { area } from './shapes';

export function report(): string {
  return String(area(2));
}
`;
/** Uses area without importing it: the quick fix adds the import. */
const USER = `export function twice(r: number): number {
  return area(r) * 2;
}
`;
const UGLY = `export function   tidy( a:number ,b:number ):number{
  return a+b;
}
`;

beforeAll(async () => {
  cli = await buildTarget('cli');
  await buildTarget('server'); // --headless imports @idea-kit/server's built entry
  tmp = mkdtempSync(join(tmpdir(), 'idea-cli-edits-'));
  ws = join(tmp, 'ws');
  home = join(tmp, 'home');
  mkdirSync(join(ws, 'src'), { recursive: true });
  mkdirSync(home);
  writeFileSync(
    join(ws, 'tsconfig.json'),
    '{"compilerOptions":{"strict":true,"target":"es2022","module":"esnext","moduleResolution":"bundler"},"include":["src"]}\n',
  );
  writeFileSync(join(ws, 'src/shapes.ts'), SHAPES);
  writeFileSync(join(ws, 'src/main.ts'), MAIN);
  writeFileSync(join(ws, 'src/user.ts'), USER);
  writeFileSync(join(ws, 'src/ugly.ts'), UGLY);
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `idea …` in the workspace, as a process, bounded; `input` is its stdin. */
function idea(args: string[], input?: string): Promise<Run> {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: ws,
    env: { HOME: home, IDEA_REGISTRY_DIR: join(tmp, 'registry'), PATH: process.env.PATH ?? '', NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
  child.stdin.end(input ?? '');
  return within(
    new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))),
    COMMAND_MS,
    `idea ${args.join(' ')}`,
  ).catch((e: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${e.message}\nstderr so far: ${stderr}`);
  });
}

/** Every file of the workspace by its sha256, and every folder. */
function tree(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        out.set(`${relative(ws, p)}/`, 'folder');
        walk(p);
      } else out.set(relative(ws, p), createHash('sha256').update(readFileSync(p)).digest('hex'));
    }
  };
  walk(ws);
  return out;
}
const read = (f: string) => readFileSync(join(ws, f), 'utf8');

/** The transaction a write printed, on stdout and in the undo hint on stderr. */
function transactionOf(r: Run): string {
  const m = /; transaction (\S+)$/m.exec(r.stdout);
  expect(m, `no transaction in:\n${r.stdout}\n${r.stderr}`).not.toBeNull();
  expect(r.stderr).toContain(`idea: undo it with: idea undo ${m![1]}\n`);
  return m![1]!;
}

describe('idea apply, fix, format, mv, transactions and undo through --headless', () => {
  const written: string[] = [];
  let start: Map<string, string>;

  it('--help lists the commands', async () => {
    const r = await idea(['--help']);
    expect(r.code, r.stderr).toBe(0);
    for (const c of [
      /^ {2}apply \[PARAMS\.json\|-\] \[flags\] /m,
      /^ {2}fix FILE:LINE \[CHOICE\] \[--first\] \[--yes\] /m,
      /^ {2}format FILE_PATH \[flags\] /m,
      /^ {2}move FILE_PATH NEW_FILE_PATH \[flags\] .*\(also: mv\)$/m,
      /^ {2}undo TRANSACTION_ID \[flags\] /m,
      /^ {2}transactions \[flags\] /m,
    ])
      expect(r.stdout).toMatch(c);
    const fix = await idea(['fix', '--help']);
    expect(fix.stdout).toMatch(/^usage: idea fix FILE\[:LINE\[:COL\]\] \[CHOICE\]/);
  });

  it('apply: a file of params, its dry run first (nothing written), then the write and its transaction', async () => {
    start = tree();
    const edit = {
      label: 'area by the diameter',
      changes: [
        {
          kind: 'edit',
          filePath: 'src/shapes.ts',
          edits: [
            {
              namePath: '/area',
              operation: 'replace',
              newText: 'export function area(r: number): number {\n  return (Math.PI * (2 * r) ** 2) / 4;\n}',
            },
          ],
        },
      ],
    };
    writeFileSync(join(tmp, 'edit.json'), JSON.stringify(edit, null, 2));
    const dry = await idea(['--headless', 'apply', join(tmp, 'edit.json'), '--dry-run']);
    expect(dry.stderr).toBe('');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(
      [
        'dry run: would apply 1 edit in 1 file (nothing written)',
        '--- a/src/shapes.ts',
        '+++ b/src/shapes.ts',
        '@@ -1,3 +1,3 @@',
        ' export function area(r: number): number {',
        '-  return Math.PI * r * r;',
        '+  return (Math.PI * (2 * r) ** 2) / 4;',
        ' }',
        '',
      ].join('\n'),
    );
    expect(tree()).toEqual(start);
    const r = await idea(['--headless', 'apply', join(tmp, 'edit.json')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^applied: 1 edit in 1 file; transaction \S+$/);
    written.push(transactionOf(r));
    expect(read('src/shapes.ts')).toContain('return (Math.PI * (2 * r) ** 2) / 4;');
  });

  it('apply -: the list of changes alone from stdin', async () => {
    const changes = [
      {
        kind: 'edit',
        filePath: 'src/shapes.ts',
        edits: [
          {
            namePath: '/area',
            operation: 'insertAfter',
            newText: 'export function perimeter(r: number): number {\n  return 2 * Math.PI * r;\n}',
          },
        ],
      },
    ];
    const r = await idea(['--headless', 'apply', '-'], JSON.stringify(changes));
    expect(r.code, r.stderr).toBe(0);
    written.push(transactionOf(r));
    expect(read('src/shapes.ts')).toContain('}\n\nexport function perimeter(r: number): number {');
  });

  it('apply: a bad file is a usage error naming the file and where in it, a missing one exit 1; nothing is sent', async () => {
    const before = tree();
    writeFileSync(join(tmp, 'broken.json'), '{\n  "changes": [\n    {"kind": "edit",}\n  ]\n}\n');
    const notJson = await idea(['--headless', 'apply', join(tmp, 'broken.json')]);
    expect(notJson.code, notJson.stderr).toBe(2);
    expect(notJson.stderr).toMatch(new RegExp(`^idea: ${join(tmp, 'broken.json').replace(/[.]/g, '\\.')} is not JSON`));
    writeFileSync(
      join(tmp, 'wrong.json'),
      JSON.stringify({
        changes: [
          { kind: 'edit', filePath: 'src/a.ts', edits: [{ namePath: 'a', operation: 'rewrite', newText: '' }] },
        ],
      }),
    );
    const wrong = await idea(['--headless', 'apply', join(tmp, 'wrong.json')]);
    expect(wrong.code, wrong.stderr).toBe(2);
    expect(wrong.stderr).toContain(
      `idea: ${join(tmp, 'wrong.json')}: $.changes[0].edits[0].operation must be one of "replace", "insertBefore", "insertAfter", "delete"\n`,
    );
    const missing = await idea(['--headless', 'apply', join(tmp, 'none.json')]);
    expect(missing.code, missing.stderr).toBe(1); // the command line is right; the file is not there
    expect(missing.stderr).toMatch(/^idea: cannot read .*none\.json: ENOENT/);
    const object = await idea(['--headless', 'apply', '-'], '"changes"');
    expect(object.code, object.stderr).toBe(2);
    expect(object.stderr).toMatch(/^idea: stdin must hold a JSON object \(the params of \/app\/vscode\/edit\/apply\)/);
    expect(tree()).toEqual(before);
  });

  it('fix: the code actions at a line, numbered; a choice is a dry run; --yes writes it', async () => {
    const listed = await idea(['--headless', 'fix', 'src/user.ts:2']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^1\. Add import from "\.\/shapes" {2}quickfix {2}preferred {2}id \S+$/m);
    expect(listed.stdout).toMatch(/^ {5}fixes src\/user\.ts:2:10: error ts 2304: Cannot find name 'area'\.$/m);
    const before = tree();
    const dry = await idea(['--headless', 'fix', 'src/user.ts:2', 'Add import from "./shapes"']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(
      /^Add import from "\.\/shapes" {2}\(quickfix\)\ndry run: the code action would make 1 edit/,
    );
    expect(dry.stdout).toMatch(/^\+import \{ area \} from "\.\/shapes";$/m);
    expect(dry.stderr).toBe('idea: nothing written: add --yes to write it\n');
    expect(tree()).toEqual(before);
    const r = await idea(['--headless', 'fix', 'src/user.ts:2', '--first', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^applied the code action: 1 edit in 1 file; transaction \S+$/m);
    written.push(transactionOf(r));
    expect(read('src/user.ts')).toMatch(/^import \{ area \} from "\.\/shapes";\n/);
    const none = await idea(['--headless', 'fix', 'src/user.ts:1', '99']);
    expect(none.code, none.stderr).toBe(1);
    expect(none.stderr).toMatch(/^idea: there is no action 99: \d+ actions: 1\. /);
  });

  it('format: the diff on --dry-run, then the write', async () => {
    const dry = await idea(['--headless', 'format', 'src/ugly.ts', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^dry run: formatting would make \d+ edits? in 1 file \(nothing written\)$/m);
    expect(dry.stdout).toContain('\n-  return a+b;\n');
    expect(read('src/ugly.ts')).toBe(UGLY);
    const r = await idea(['--headless', 'format', 'src/ugly.ts']);
    expect(r.code, r.stderr).toBe(0);
    written.push(transactionOf(r));
    expect(read('src/ugly.ts')).toContain('return a + b;');
  });

  it('mv: the importers follow', async () => {
    const dry = await idea(['--headless', 'mv', 'src/shapes.ts', 'src/geo/shapes.ts', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("\n-import { area } from './shapes';\n+import { area } from './geo/shapes';\n");
    expect(dry.stdout).toContain('\nrenamed src/shapes.ts → src/geo/shapes.ts\n');
    const r = await idea(['--headless', 'mv', 'src/shapes.ts', 'src/geo/shapes.ts']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^moved: 2 edits in 3 files; transaction \S+$/);
    written.push(transactionOf(r));
    expect(read('src/main.ts')).toContain("from './geo/shapes'");
    expect(read('src/user.ts')).toContain('from "./geo/shapes"');
  });

  it('transactions lists the writes newest first; undo takes each back, and the tree is as it was', async () => {
    const listed = await idea(['--headless', 'transactions']);
    expect(listed.code, listed.stderr).toBe(0);
    const rows = listed.stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^TRANSACTION +WHEN +TOPIC +FILES +LABEL$/);
    expect(rows.slice(1, 1 + written.length).map((l) => l.split(' ')[0])).toEqual([...written].reverse());
    expect(rows.find((l) => l.startsWith(written[0]!))).toMatch(/edit\/apply +src\/shapes\.ts +area by the diameter$/);
    for (const tx of [...written].reverse()) {
      const r = await idea(['--headless', 'undo', tx]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split('\n')[0]).toMatch(/^undone: \d+ files?; transaction \S+$/);
    }
    expect(tree()).toEqual(start);
    const again = await idea(['--headless', 'undo', written[0]!]);
    expect(again.code, again.stderr).toBe(1); // undone already: refused, naming why
    expect(again.stderr).toMatch(/^idea: [A-Z_]+: /);
  });
});
