// idea-server's LSP client against the real typescript-language-server (from node_modules) on a small
// TS project in a temp folder: definition across files, references, symbols, a type error's
// diagnostic (and its disappearance once the file is fixed on disk), a crash (the next request
// restarts the server) and a clean shutdown that leaves no process behind (one tsserver, no type
// acquisition). One client for the file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient } from '../../../idea-server/src/lsp/client';
import { LspAbortError } from '../../../idea-server/src/lsp/errors';
import { poll } from '../../../runtime/poll';
import { descendants, running } from './processes';

const SLOW = 180_000; // the first request waits for tsserver to load the project; the machine is shared

const dir = mkdtempSync(join(tmpdir(), 'idea-lsp-ts-'));
const a = join(dir, 'a.ts');
const b = join(dir, 'b.ts');
const A = [
  "import { greet, Greeter } from './b';",
  '',
  "export const message: string = greet('world');",
  "const n: number = 'oops';",
  'new Greeter().hello(n);',
  '',
].join('\n');
const B = [
  'export function greet(name: string): string {',
  '  return `hello ${name}`;',
  '}',
  '',
  'export class Greeter {',
  '  hello(times: number): void {',
  "    greet('x');",
  '  }',
  '}',
  '',
].join('\n');

let client: LspClient;

const commandLine = (pid: number): string[] => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
};

beforeAll(() => {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        noEmit: true,
        noUnusedLocals: false,
      },
    }),
  );
  writeFileSync(a, A);
  writeFileSync(b, B);
  client = new LspClient({ rootPath: dir });
});

afterAll(async () => {
  await client?.shutdown(); // bounded: shutdown + exit, then a kill, 5 s each
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('LspClient with typescript-language-server', () => {
  it('definition across files: the whole declaration and its text', { timeout: SLOW }, async () => {
    // `greet` in greet('world') on line 2
    const res = await client.definition(a, 2, 33);
    expect(res).toEqual({
      locations: [
        {
          filePath: b,
          line: 0,
          character: 0,
          endLine: 2,
          endCharacter: 1,
          code: 'export function greet(name: string): string {\n  return `hello ${name}`;\n}',
        },
      ],
    });
  });

  it('references, with and without the declaration, sorted by file and position', { timeout: SLOW }, async () => {
    const loc = (filePath: string, line: number, character: number) => ({
      filePath,
      line,
      character,
      endLine: line,
      endCharacter: character + 5,
    });
    const all = await client.references(b, 0, 17, true);
    expect(all).toEqual({ locations: [loc(a, 0, 9), loc(a, 2, 31), loc(b, 0, 16), loc(b, 6, 4)], totalCount: 4 });
    const refs = await client.references(b, 0, 17, false);
    expect(refs).toEqual({ locations: [loc(a, 0, 9), loc(a, 2, 31), loc(b, 6, 4)], totalCount: 3 });
  });

  it('symbols: the hierarchy flattened parent-first, filtered by query', { timeout: SLOW }, async () => {
    const res = await client.symbols(b);
    expect(
      res.symbols.map((s) => [s.name, s.kind, s.containerName, s.line, s.selectionLine, s.selectionCharacter]),
    ).toEqual([
      ['greet', 'function', null, 0, 0, 16],
      ['Greeter', 'class', null, 4, 4, 13],
      ['hello', 'method', 'Greeter', 5, 5, 2],
    ]);
    expect(res.totalCount).toBe(3);
    expect(await client.symbols(b, 'HELL')).toMatchObject({
      symbols: [{ name: 'hello', containerName: 'Greeter' }],
      totalCount: 1,
    });
  });

  it("a type error's diagnostic; gone once the file is fixed on disk", { timeout: SLOW }, async () => {
    const res = await client.diagnostics([a, b], 'error');
    expect(res).toEqual({
      totalCount: 1,
      diagnostics: [
        {
          filePath: a,
          line: 3,
          character: 6,
          endLine: 3,
          endCharacter: 7,
          severity: 'error',
          message: "Type 'string' is not assignable to type 'number'.",
          source: 'ts', // as VS Code's TypeScript extension says (lsp/vscode-typescript.ts)
          code: '2322',
        },
      ],
    });
    expect(client.knownDiagnostics('error').diagnostics.map((d) => d.code)).toEqual(['2322']);

    writeFileSync(a, A.replace("'oops'", '42'));
    expect(await client.diagnostics([a], 'error')).toEqual({ diagnostics: [], totalCount: 0 });
  });

  it('a clean file changed and still clean: answered without the silent wait (the checker asked)', {
    timeout: SLOW,
  }, async () => {
    // typescript-language-server publishes nothing when empty stays empty: without asking its checker the
    // second answer would wait out silentMs, here longer than the test may take.
    const c = join(dir, 'c.ts');
    writeFileSync(c, 'export const one = 1;\n');
    const patient = new LspClient({ rootPath: dir, settleTimes: { quietMs: 500, silentMs: 600_000 } });
    const within = <T>(p: Promise<T>, what: string) =>
      Promise.race([
        p,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer in 30 s: ${what}`)), 30_000)),
      ]);
    try {
      expect(await within(patient.diagnostics([c]), 'first open')).toEqual({ diagnostics: [], totalCount: 0 });
      writeFileSync(c, 'export const one = 1;\nexport const two = 2;\n');
      expect(await within(patient.diagnostics([c]), 'clean → clean')).toEqual({ diagnostics: [], totalCount: 0 });
      writeFileSync(c, "export const one: number = 'x';\n");
      const broken = await within(patient.diagnostics([c], 'error'), 'clean → broken');
      expect(broken.diagnostics.map((d) => d.code)).toEqual(['2322']);
    } finally {
      await patient.shutdown();
    }
  });

  it('a request given up is rejected at once and the server keeps serving', { timeout: SLOW }, async () => {
    await expect(client.symbols(b, undefined, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(LspAbortError);
    const ac = new AbortController();
    const pending = client.references(b, 0, 17, true, { signal: ac.signal });
    ac.abort();
    await expect(pending).rejects.toBeInstanceOf(LspAbortError);
    expect((await client.symbols(b)).totalCount).toBe(3);
  });

  it('a crashed server is restarted by the next request', { timeout: SLOW }, async () => {
    const pid = client.serverPid('typescript')!;
    expect(pid).toBeGreaterThan(0);
    const helpers = descendants(pid);
    expect(helpers.length).toBeGreaterThan(0); // tsserver
    process.kill(pid, 'SIGKILL');
    const gone = await poll(() => (client.serverPid('typescript') === undefined ? true : undefined), {
      timeoutMs: 30_000,
    });
    expect(gone).toBe(true);
    // its tsserver went with it (the client kills the server's process group)
    expect(await poll(() => (helpers.every((p) => !running(p)) ? true : undefined), { timeoutMs: 30_000 })).toBe(true);

    const res = await client.definition(a, 2, 33);
    expect(res.locations.map((l) => [l.filePath, l.line])).toEqual([[b, 0]]);
    expect(client.serverPid('typescript')).not.toBe(pid);
  });

  it('shutdown leaves no process behind', { timeout: SLOW }, async () => {
    const pid = client.serverPid('typescript')!;
    const all = [pid, ...descendants(pid)];
    expect(all.every(running)).toBe(true);
    // One semantic tsserver (no syntax server), without automatic type acquisition (config.ts).
    const tsservers = all.map(commandLine).filter((c) => c.some((a) => a.endsWith('tsserver.js')));
    expect(tsservers).toHaveLength(1);
    expect(tsservers[0]).toContain('--disableAutomaticTypingAcquisition');
    expect(all.map(commandLine).some((c) => c.some((a) => a.endsWith('typingsInstaller.js')))).toBe(false);
    await client.shutdown();
    expect(client.serverPid('typescript')).toBeUndefined();
    expect(await poll(() => (all.every((p) => !running(p)) ? true : undefined), { timeoutMs: 30_000 })).toBe(true);
    await expect(client.symbols(b)).rejects.toMatchObject({ name: 'LspUnavailableError', reason: 'stopped' });
  });
});
