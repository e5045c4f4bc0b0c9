// An agent's task end to end (issue 34): the built `idea-mcp --headless` (idea-server in-process, the
// TypeScript language server behind it), driven by the official SDK client over stdio, on a real
// repository: date-fns from the shared corpus (1,538 TypeScript files), committed once. The agent finds
// a function, reads its hover and references, renames it (dry run, then for real), checks that the
// changed files have no new diagnostics, reads one file's git diff and rolls that file back (then the
// rest). Each step's text content is what a model reads: it is checked for the facts the next step
// needs and bounded in size (each bound says why), and the transcript is printed.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTarget } from '../../scripts/build';
import { escapeRegExp } from '../../server-core/search/regex-core';
import { within } from '../support/processes';
import { git, unpackDateFns } from './support/corpus';
import { buildMcp, IDEA_MCP } from './support/idea-mcp';

/** Any one call; the first language-server call loads the whole project (seconds, more on a loaded machine). */
const STEP_MS = 45_000;

const tmp = mkdtempSync(join(tmpdir(), 'idea-mcp-agent-task-'));
// date-fns unpacked is thousands of files: removing them took over 10 s on a loaded machine
afterAll(() => rmSync(tmp, { recursive: true, force: true }), 120_000);

let ws: string;
beforeAll(async () => {
  ws = unpackDateFns(tmp); // first: a missing corpus fails here, saying where it was looked for
  await within(
    Promise.all([buildMcp(), buildTarget('server')]), // idea-mcp imports @idea-kit/server's built entry
    110_000,
    'building idea-mcp and idea-server',
  );
}, 120_000);

interface Result {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

interface Step {
  n: number;
  tool: string;
  args: Record<string, unknown>;
  text: string;
  bytes: number;
  ms: number;
  result: Result;
}

const lines = (s: string) => s.split('\n');

describe('an agent renames a function in date-fns through idea-mcp --headless', () => {
  it('every step answers the facts the next one needs, in no more text than that', async () => {
    const client = new Client({ name: 'agent-task', version: '1' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [IDEA_MCP, '--headless', '--cwd', ws, '--timeout', String(STEP_MS)],
      env: { HOME: join(tmp, 'home'), IDEA_REGISTRY_DIR: join(tmp, 'registry'), PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    mkdirSync(join(tmp, 'home'));
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => void (stderr = (stderr + c.toString()).slice(-8192)));
    const started = Date.now();
    await within(client.connect(transport), 30_000, 'idea-mcp --headless: initialize');

    const steps: Step[] = [];
    // Printed once at the end (or when a step fails): one block per call, as the model read it.
    const transcript = [`agent task on date-fns ($WS = ${ws}); idea-mcp --headless over stdio, SDK client`];
    const short = (s: string) => s.split(ws).join('$WS');
    /** One tool call, bounded, recorded and printed as a model would read it. */
    const call = async (tool: string, args: Record<string, unknown>): Promise<Step> => {
      const t0 = Date.now();
      let result: Result;
      try {
        result = (await within(
          client.callTool({ name: tool, arguments: args }, undefined, { timeout: STEP_MS + 15_000 }),
          STEP_MS,
          `${tool} ${JSON.stringify(args)}`,
        )) as Result;
      } catch (e) {
        throw new Error(`${(e as Error).message}\nidea-mcp's stderr, last lines:\n${stderr}`);
      }
      const text = result.content.map((c) => c.text).join('\n');
      const s = { n: steps.length + 1, tool, args, text, bytes: Buffer.byteLength(text), ms: Date.now() - t0, result };
      steps.push(s);
      const head = lines(short(text)).slice(0, 3);
      transcript.push(
        [
          `#${s.n} ${tool} ${short(JSON.stringify(args))} → ${s.bytes} B, ${lines(text).length} line(s), ${s.ms} ms${result.isError ? ' (tool error)' : ''}`,
          ...head.map((l) => `    | ${l}`),
          ...(lines(text).length > head.length ? [`    | … ${lines(text).length - head.length} more lines`] : []),
        ].join('\n'),
      );
      if (!result.isError) return s;
      throw new Error(`${tool} answered a tool error: ${text}`);
    };
    /** `s`'s text is at most `max` bytes, because `why`. */
    const bounded = (s: Step, max: number, why: string) =>
      expect(s.bytes, `#${s.n} ${s.tool}: ${s.bytes} B > ${max} B, but ${why}`).toBeLessThanOrEqual(max);

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
      const refs = await call('nav_references', at);
      const locations = refs.result.structuredContent!.locations as { filePath: string }[];
      expect(lines(refs.text)).toHaveLength(locations.length); // every reference, no "(showing …)" cut
      expect(refs.result.structuredContent!.totalCount).toBe(locations.length);
      for (const l of lines(refs.text)) expect(l).toMatch(new RegExp(`^${escapeRegExp(ws)}/src/\\S+\\.ts:\\d+:\\d+$`));
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
      const key = (r: Result) =>
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
        bounded(s, n * (ws.length + 200), 'one line per diagnostic: position, severity, source and code, the message');
      };
      diagnosticsText(before);
      if (key(before.result).length === 0)
        expect(before.text).toBe(`No diagnostics in the ${files.length} files asked.`);

      // 7. Rename for real: the same edits, written.
      const renamed = await call('edit_rename', { ...at, newName: 'addDaysToDate' });
      expect(lines(renamed.text)[0]).toBe(`renamed: ${plan.editCount} edits in ${files.length} files`);
      expect(lines(renamed.text).slice(1)).toEqual(lines(dry.text).slice(1)); // what the dry run showed
      bounded(renamed, dry.bytes, 'it is the dry run with another first line');
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
      const back = await call('history_rollback', { filePath: 'src/subDays/index.ts', toIndex: 1 });
      expect(back.text).toBe(
        `restored ${ws}/src/subDays/index.ts to commit HEAD (history index 1) and saved it to disk`,
      );
      bounded(back, 256, 'one line: the file and the version restored');
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
        expect(r.text).toBe(`restored ${ws}/${f} to commit HEAD (history index 1) and saved it to disk`);
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
      const total = steps.reduce((n, s) => n + s.bytes, 0);
      transcript.push(`${steps.length} calls, ${total} B of text in all, ${Date.now() - started} ms from start`);
      console.log(transcript.join('\n'));
      await client.close();
    }
  }, 115_000);
});
