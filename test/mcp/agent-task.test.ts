// An agent's task end to end (issue 34): the built `idea-mcp --headless` (idea-server in-process, the
// TypeScript language server behind it), driven by the official SDK client over stdio, on a real
// repository: date-fns from the shared corpus (1,538 TypeScript files), committed once. The agent finds
// a function, reads its hover and references, renames it (dry run, then for real), checks that the
// changed files have no new diagnostics, reads one file's git diff and rolls that file back (then the
// rest). Each step's text content is what a model reads: it is checked for the facts the next step
// needs and bounded in size (each bound says why), and the transcript is printed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTarget } from '../../scripts/build';
import { escapeRegExp } from '../../server-core/search/regex-core';
import { within } from '../support/processes';
import { type AgentResult, lines, type Step, agentSession as session } from './support/agent-session';
import { git, unpackDateFns } from './support/corpus';
import { buildMcp } from './support/idea-mcp';

/** Any one call; the first language-server call loads the whole project (seconds, more on a loaded machine). */
const STEP_MS = 45_000;
/**
 * A first workspace-wide call: it loads every project of date-fns's solution tsconfig first (six; 27 s
 * alone here, 42 s with other tests running on the two cores), so its bound is twice a step's.
 */
const WORKSPACE_MS = 2 * STEP_MS;

const tmp = mkdtempSync(join(tmpdir(), 'idea-mcp-agent-task-'));
// two unpacked repositories are thousands of files: removing them took over 10 s on a loaded machine
afterAll(() => rmSync(tmp, { recursive: true, force: true }), 120_000);

let ws: string;
/** A session on date-fns, its calls bounded by a step (idea-mcp waits up to a workspace-wide call). */
const agentSession = (name: string, home: string) =>
  session({ name: `${name} on date-fns`, ws, tmp, home, stepMs: STEP_MS, timeoutMs: WORKSPACE_MS });

beforeAll(async () => {
  ws = unpackDateFns(tmp); // first: a missing corpus fails here, saying where it was looked for
  await within(
    Promise.all([buildMcp(), buildTarget('server')]), // idea-mcp imports @idea-kit/server's built entry
    110_000,
    'building idea-mcp and idea-server',
  );
}, 120_000);

describe('an agent renames a function in date-fns through idea-mcp --headless', () => {
  it(
    'every step answers the facts the next one needs, in no more text than that',
    async () => {
      const { call, bounded, finish } = await agentSession('agent task', 'home');

      try {
        // 1. Find the function by name, as grep would.
        const found = await call('edit_find', { pattern: 'export function addDays', include: 'src/**/*.ts' });
        expect(found.text).toBe(`${ws}/src/addDays/index.ts:33:1: export function addDays<`);
        bounded(found, 256, 'one match is one grep line: path:line:col and the line');

        // 2. Where exactly the name is: the file's outline, filtered.
        const outline = await call('nav_symbols', { filePath: 'src/addDays/index.ts', query: 'addDays' });
        const m = /^function addDays {2}(\d+):(\d+)$/m.exec(outline.text);
        expect(m, outline.text).not.toBeNull();
        bounded(outline, 256, 'two symbols of one file match the query: one outline line each');
        // The text prints positions 1-based (as grep and editors do); the arguments are 0-based.
        const at = { filePath: 'src/addDays/index.ts', line: Number(m![1]) - 1, character: Number(m![2]) - 1 };
        expect(at).toEqual({ filePath: 'src/addDays/index.ts', line: 32, character: 16 });

        // 3. What it is: signature and documentation.
        const hover = await call('nav_hover', at);
        expect(hover.text).toContain('function addDays<DateType extends Date, ResultDate extends Date = DateType>(');
        expect(hover.text).toContain('Add the specified number of days to the given date.');
        const source = readFileSync(join(ws, 'src/addDays/index.ts'), 'utf8');
        const doc = source.indexOf('/**\n * @name addDays');
        const signature = source.indexOf('): ResultDate {') - source.indexOf('export function addDays');
        bounded(
          hover,
          source.indexOf('export function addDays') - doc + signature + 256,
          'a hover is the signature and the doc comment (+ markdown)',
        );

        // 4. Who uses it.
        let refs = await call('nav_references', at, { ms: WORKSPACE_MS }); // loads every project first (T47)
        // Projects not loaded within the server's budget are listed as not searched and go on loading: an
        // agent told "incomplete" asks again (bounded), and the answer it keeps is complete.
        const complete = (r: Step) =>
          (r.result.structuredContent!.coverage as { complete?: boolean } | undefined)?.complete !== false;
        for (let again = 0; again < 5 && !complete(refs); again++)
          refs = await call('nav_references', at, { ms: WORKSPACE_MS });
        expect(refs.text).not.toMatch(/^incomplete/m);
        const locations = refs.result.structuredContent!.locations as { filePath: string }[];
        expect(lines(refs.text)).toHaveLength(locations.length); // every reference, no "(showing …)" cut
        expect(refs.result.structuredContent!.totalCount).toBe(locations.length);
        for (const l of lines(refs.text))
          expect(l).toMatch(new RegExp(`^${escapeRegExp(ws)}/src/\\S+\\.ts:\\d+:\\d+$`));
        expect(lines(refs.text)).toContain(`${ws}/src/addDays/index.ts:33:17`); // the declaration
        expect(lines(refs.text)).toContain(`${ws}/src/subDays/index.ts:37:10`);
        const refFiles = new Set(locations.map((l) => l.filePath));
        expect(locations.length).toBeGreaterThanOrEqual(20);
        expect(refFiles.size).toBeGreaterThanOrEqual(10);
        expect(refFiles.size).toBeLessThanOrEqual(50);
        bounded(refs, locations.length * (ws.length + 48), 'one line per reference: the absolute path and line:col');

        // 5. Rename, dry run: what would change, nothing written.
        const subDays = readFileSync(join(ws, 'src/subDays/index.ts'));
        const dry = await call('edit_rename', { ...at, newName: 'addDaysToDate', dryRun: true });
        const plan = dry.result.structuredContent as { editCount: number; files: { filePath: string }[] };
        const files = plan.files.map((f) => f.filePath.slice(ws.length + 1));
        expect(lines(dry.text)[0]).toBe(
          `dry run: would make ${plan.editCount} edits in ${files.length} files (nothing written)`,
        );
        for (const f of files) expect(dry.text, f).toContain(`\n+++ b/${f}\n`);
        expect(dry.text).toContain('\n-export function addDays<\n+export function addDaysToDate<\n');
        expect(files).toContain('src/subDays/index.ts');
        expect(readFileSync(join(ws, 'src/subDays/index.ts')).equals(subDays)).toBe(true);
        expect(git(ws, 'status', '--porcelain')).toBe('');
        // A hunk per edit: the -/+ pair with 3 lines of context either side, under its file's headers.
        expect(lines(dry.text).length).toBeLessThanOrEqual(1 + 2 * files.length + 9 * plan.editCount);
        bounded(dry, 400 * plan.editCount, 'a hunk per edit is ~300 B here (3 context lines either side)');

        // 6. The diagnostics those files have now, to tell new ones later.
        const key = (r: AgentResult) =>
          (r.structuredContent!.diagnostics as { filePath: string; line: number; code: unknown; severity: string }[])
            .map((d) => `${d.filePath.slice(ws.length + 1)}:${d.line + 1} ${d.severity} ${d.code}`)
            .sort();
        const before = await call('diag_list', { filePath: files });
        const diagnosticLine = new RegExp(
          `^${escapeRegExp(ws)}/src/\\S+\\.ts:\\d+:\\d+: (error|warning|information|hint)( ts \\d+)?: .+$`,
        );
        const diagnosticsText = (s: Step) => {
          const n = (s.result.structuredContent!.diagnostics as unknown[]).length;
          if (n === 0) return;
          expect(lines(s.text)).toHaveLength(n);
          for (const l of lines(s.text)) expect(l).toMatch(diagnosticLine);
          bounded(
            s,
            n * (ws.length + 200),
            'one line per diagnostic: position, severity, source and code, the message',
          );
        };
        diagnosticsText(before);
        if (key(before.result).length === 0)
          expect(before.text).toBe(`No diagnostics in the ${files.length} files asked.`);

        // 7. Rename for real: the same edits, written.
        const renamed = await call('edit_rename', { ...at, newName: 'addDaysToDate' });
        expect(lines(renamed.text)[0]).toBe(`renamed: ${plan.editCount} edits in ${files.length} files`);
        expect(lines(renamed.text).slice(1, -1)).toEqual(lines(dry.text).slice(1)); // what the dry run showed
        // Since 0.1.8 a write has a transaction, and its text ends with how to undo it.
        const tx = renamed.result.structuredContent!.transactionId;
        expect(lines(renamed.text).at(-1)).toBe(`To undo it: edit_undo with transactionId "${tx}".`);
        bounded(renamed, dry.bytes + 100, 'it is the dry run with another first line and the undo line');
        const modified = git(ws, 'status', '--porcelain').split('\n').filter(Boolean);
        expect(modified.map((l) => l.slice(3)).sort()).toEqual([...files].sort());
        expect(readFileSync(join(ws, 'src/subDays/index.ts'), 'utf8')).toContain(
          'return addDaysToDate(date, -amount, options);',
        );

        // 8. What did the edit break? The changed files' diagnostics, found by git: none new.
        const after = await call('diag_list', { changed: true });
        expect(key(after.result)).toEqual(key(before.result));
        diagnosticsText(after);
        if (key(after.result).length === 0)
          expect(after.text).toBe(`No diagnostics in the ${files.length} files git reports as changed.`);

        // 9. One file's change as git sees it.
        const diff = await call('history_diff', { filePath: 'src/subDays/index.ts' });
        for (const l of [
          '-import { addDays } from "../addDays/index.ts";',
          '+import { addDaysToDate } from "../addDays/index.ts";',
          '-  return addDays(date, -amount, options);',
          '+  return addDaysToDate(date, -amount, options);',
        ])
          expect(lines(diff.text)).toContain(l);
        bounded(diff, 1024, 'two edits of one file: two hunks of 7 lines and the headers');

        // 10. Roll that file back to HEAD: byte for byte what was committed.
        // Since 0.1.8 a rollback is a write with a transaction: its text ends with how to undo it.
        const restored = (s: Step, f: string) =>
          expect(s.text).toBe(
            `restored ${ws}/${f} to commit HEAD (history index 1) and saved it to disk\nTo undo it: edit_undo with transactionId "${s.result.structuredContent!.transactionId}".`,
          );
        const back = await call('history_rollback', { filePath: 'src/subDays/index.ts', toIndex: 1 });
        restored(back, 'src/subDays/index.ts');
        bounded(back, 256, 'two lines: the file and the version restored, and how to undo it');
        expect(readFileSync(join(ws, 'src/subDays/index.ts')).equals(subDays)).toBe(true);
        const same = await call('history_diff', { filePath: 'src/subDays/index.ts' });
        expect(same.text).toBe('working-tree → HEAD\n(no differences)');

        // 11. Alone, that rollback breaks the file (it imports the old name): the diagnostics say so.
        const broken = await call('diag_list', { filePath: 'src/subDays/index.ts' });
        expect(broken.text).toMatch(
          new RegExp(`^${escapeRegExp(ws)}/src/subDays/index\\.ts:1:\\d+: error ts \\d+: .*'addDays'`, 'm'),
        );
        diagnosticsText(broken);

        // 12. So the agent rolls the rest back too, and git reports nothing changed.
        for (const f of files.filter((x) => x !== 'src/subDays/index.ts')) {
          const r = await call('history_rollback', { filePath: f, toIndex: 1 });
          restored(r, f);
        }
        expect(git(ws, 'status', '--porcelain')).toBe('');
        const clean = await call('diag_list', { changed: true });
        expect(clean.text).toBe(`git reports no changed files in ${ws}: no diagnostics to ask for.`);
        // Nothing left of the new name (ripgrep over the files on disk): an empty answer says what was empty.
        const gone = await call('edit_find', { pattern: 'addDaysToDate', include: 'src/**/*.ts' });
        expect(gone.text).toBe('No matches for "addDaysToDate" in src/**/*.ts.');

        // 13. A misspelt argument is refused, not ignored (it would answer every known diagnostic).
        const misspelt = await call('diag_list', { filePaths: 'src/subDays/index.ts' }).then(
          () => expect.unreachable('diag_list took filePaths'),
          (e: Error) => e.message,
        );
        expect(misspelt).toBe(
          'diag_list answered a tool error: INVALID_REQUEST: unknown argument filePaths (did you mean filePath?): diag_list takes filePath, severity, changed. Nothing was sent.',
        );
      } finally {
        await finish();
      }
    },
    WORKSPACE_MS + 90_000,
  );
});

describe('an agent finds, reads and navigates date-fns by name paths only, through idea-mcp --headless', () => {
  it(
    'never gives a line number: names, name paths and the name paths each answer hands on',
    async () => {
      const { call, bounded, steps, finish } = await agentSession('name-path task', 'home-names');
      const source = (f: string) => readFileSync(join(ws, f), 'utf8');
      try {
        // 1. Where is a name declared? Every project of the workspace, with what was searched.
        const named = await call(
          'nav_workspaceSymbols',
          { query: 'addDays', kinds: ['function'] },
          { ms: WORKSPACE_MS },
        );
        expect(lines(named.text)).toContain(`${ws}/src/addDays/index.ts:33:1: function addDays`);
        // The language server's matching (tsserver's is fuzzy: addBusinessDays too), functions only.
        for (const l of lines(named.text).filter((x) => !x.startsWith('incomplete') && !x.startsWith('  ')))
          expect(l).toMatch(new RegExp(`^${escapeRegExp(ws)}/\\S+:\\d+:\\d+: function \\w+`));
        bounded(
          named,
          40 * (ws.length + 80) + 2048,
          'one line per function whose name contains addDays, and the coverage',
        );

        // 2. Read it: the symbol by name path in its file, its doc comment and source.
        const read = await call('nav_findSymbol', {
          namePath: 'addDays',
          filePath: 'src/addDays/index.ts',
          includeBody: true,
        });
        expect(lines(read.text)[0]).toBe(`${ws}/src/addDays/index.ts:33:17: function /addDays`);
        expect(read.text).toContain('\n    /**\n     * @name addDays\n');
        expect(read.text).toContain('\n    export function addDays<\n');
        expect(read.text).toContain('\n      _date.setDate(_date.getDate() + amount);\n');
        const fn = source('src/addDays/index.ts');
        const body = fn.slice(fn.indexOf('/**\n * @name addDays'), fn.lastIndexOf('}') + 1);
        bounded(
          read,
          Buffer.byteLength(body) + 4 * lines(body).length + 256,
          'the doc comment and the source, indented, under one line',
        );

        // 3. Who uses it, grouped by the function each use is in ("called from /subDays").
        const users = await call('nav_referencingSymbols', { filePath: 'src/addDays/index.ts', namePath: '/addDays' });
        const groups = lines(users.text).filter((l) => !l.startsWith('  '));
        expect(groups).toContain(`${ws}/src/subDays/index.ts:29:17: function /subDays`);
        expect(users.text).toContain(`\n  ${ws}/src/subDays/index.ts:37:10: return addDays(date, -amount, options);`);
        const total = users.result.structuredContent!.totalCount as number;
        expect(total).toBeGreaterThanOrEqual(20);
        bounded(
          users,
          total * (ws.length + 120) + groups.length * (ws.length + 80),
          'a line per reference and one per containing symbol',
        );

        // 4. The callers, as a call hierarchy: subDays among them, with where it calls.
        const callers = await call('nav_callHierarchy', {
          filePath: 'src/addDays/index.ts',
          namePath: '/addDays',
          direction: 'incoming',
        });
        expect(lines(callers.text)[0]).toBe(`${ws}/src/addDays/index.ts:33:17: function /addDays`);
        expect(callers.text).toMatch(
          new RegExp(
            `\\n  called from ${escapeRegExp(ws)}/src/subDays/index\\.ts:29:17: function /subDays {2}\\(at 37:10\\)`,
          ),
        );

        // 5. Read a caller by the name path the answer handed on.
        const caller = await call('nav_findSymbol', {
          namePath: '/subDays',
          filePath: 'src/subDays/index.ts',
          includeBody: true,
        });
        expect(caller.text).toContain('\n      return addDays(date, -amount, options);\n');

        // 6. What it calls in turn.
        const callees = await call('nav_callHierarchy', {
          filePath: 'src/addDays/index.ts',
          namePath: '/addDays',
          direction: 'outgoing',
        });
        expect(callees.text).toMatch(/\n {2}calls \S+\/src\/toDate\/index\.ts:\d+:\d+: function \/toDate/);
        expect(callees.text).toMatch(
          /\n {2}calls \S+\/src\/constructFrom\/index\.ts:\d+:\d+: function \/constructFrom/,
        );

        // 7. A symbol somewhere in the workspace, the file not known: found by name path alone.
        const anywhere = await call('nav_findSymbol', { namePath: 'addBusinessDays', includeKinds: ['function'] });
        expect(lines(anywhere.text)[0]).toMatch(
          new RegExp(
            `^${escapeRegExp(ws)}/src/addBusinessDays/index\\.ts:\\d+:\\d+: function /addBusinessDays {2}export function addBusinessDays<`,
          ),
        );

        // 8. Its signature and doc by name path, as hover gives them.
        const hover = await call('nav_hover', { filePath: 'src/addDays/index.ts', namePath: '/addDays' });
        expect(hover.text).toContain('function addDays<DateType extends Date, ResultDate extends Date = DateType>(');

        // 9. Its references and a rename dry run by name path: the same as by position.
        const refs = await call('nav_references', {
          filePath: 'src/addDays/index.ts',
          namePath: '/addDays',
          includeDeclaration: false, // as referencingSymbols counts them
        });
        expect(refs.result.structuredContent!.totalCount).toBe(total);
        const dry = await call('edit_rename', {
          filePath: 'src/addDays/index.ts',
          namePath: '/addDays',
          newName: 'addDaysToDate',
          dryRun: true,
        });
        expect(dry.text).toContain(
          '\n-  return addDays(date, -amount, options);\n+  return addDaysToDate(date, -amount, options);\n',
        );
        expect(git(ws, 'status', '--porcelain')).toBe('');

        // 10. A name path that names nothing is an error listing what it could have meant, never a guess.
        const miss = await call(
          'nav_references',
          { filePath: 'src/addDays/index.ts', namePath: 'addDay' },
          { allowError: true },
        );
        expect(miss.result.isError).toBe(true);
        expect(miss.text).toMatch(/^INVALID_REQUEST: name path "addDay" matches no symbol of \S+; did you mean/);
        expect(miss.text).toContain('/addDays (function');
        // 11. A malformed one says what is wrong and where.
        const bad = await call(
          'nav_definition',
          { filePath: 'src/addDays/index.ts', namePath: 'addDays[01]' },
          { allowError: true },
        );
        expect(bad.text).toMatch(/^INVALID_REQUEST: .*character \d+/);

        // Not one line number was given.
        for (const s of steps) expect(Object.keys(s.args), `#${s.n} ${s.tool}`).not.toContain('line');
      } finally {
        await finish();
      }
    },
    WORKSPACE_MS + 90_000,
  );
});
