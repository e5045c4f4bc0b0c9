// The docs as tests (issue 34): every `idea`, `idea-mcp`, `idea-server`, `idea-conformance` and
// `idea-spec` command line a README or docs file shows runs as a process, as written, against an
// idea-server serving the conformance fixture (registered, so the clients find it with no flags). A
// command fails the test when it exits 2 (usage), prints a usage complaint, or crashes (a stack trace);
// exit 1 (a protocol error, e.g. a file the example names that this workspace lacks) and 3 (no server
// where the line names another) are a reader's ordinary outcomes. Lines that serve until stopped
// (idea-server, idea watch, --http) pass when they are still running after a few seconds. A usage
// synopsis (`[--port N]`) is checked against the bin's --help instead: every flag it names exists.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { poll } from '../../runtime/poll';
import { buildTarget, ROOT } from '../../scripts/build';
import { exited, exitStatus } from '../support/processes';
import { type Bin, docCommands } from './doc-commands';

const OUTFILES: Record<Bin, string> = {
  idea: 'cli/dist/idea.cjs',
  'idea-mcp': 'mcp/dist/idea-mcp.mjs',
  'idea-server': 'idea-server/dist/idea-server.mjs',
  'idea-conformance': 'conformance/dist/idea-conformance.mjs',
  'idea-spec': 'spec-tools/dist/idea-spec.mjs',
};
const TARGETS = ['cli', 'mcp', 'server', 'conformance', 'spec-tools'] as const;

/** A line that serves until stopped: alive after SERVING_MS is a pass. */
const serves = (line: string) =>
  /^idea-server(?!.*--(help|version))/.test(line) || /^idea watch /.test(line) || / --http\b/.test(line);
const SERVING_MS = 4_000;
/** Any other line must have finished by then. */
const FINISH_MS = 60_000;
/** What a reader would not expect: a usage complaint, or a crash. */
const UNEXPECTED =
  /unknown (command|flag|argument|option)|needs a value|takes no value|usage error|TypeError|ReferenceError|Cannot find module|\n\s+at .+[\\/][^\\/]+\.(c?m?js|ts):\d+:\d+/i;

let tmp: string;
let ws: string;
let env: NodeJS.ProcessEnv;
let server: ChildProcess | undefined;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'idea-doc-commands-'));
  const bin = join(tmp, 'bin');
  mkdirSync(bin);
  await Promise.all(TARGETS.map((t) => buildTarget(t)));
  // The bins as an install puts them on PATH.
  for (const [name, out] of Object.entries(OUTFILES)) {
    writeFileSync(join(bin, name), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, out)}" "$@"\n`);
    chmodSync(join(bin, name), 0o755);
  }
  ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
  mkdirSync(join(ws, 'my-project')); // idea-server/README.md serves ./my-project
  const home = join(tmp, 'home');
  mkdirSync(home);
  env = { PATH: `${bin}:${process.env.PATH}`, HOME: home, IDEA_REGISTRY_DIR: join(tmp, 'registry') };
  // The server every client line finds through the registry.
  server = spawn(process.execPath, [join(ROOT, OUTFILES['idea-server']), '--workspace', ws, '--port', '0'], {
    env,
    stdio: 'ignore',
  });
  const up = await poll(
    async () => {
      if (exitStatus(server!)) throw new Error('idea-server exited before it registered');
      const r = await run('idea servers', ws, 10_000);
      return r.code === 0 ? true : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 200 },
  );
  if (!up) throw new Error('idea-server did not register within 60 s');
}, 240_000);

afterAll(async () => {
  if (server && !exitStatus(server)) {
    server.kill('SIGTERM');
    await exited(server, 'the docs tests idea-server after SIGTERM');
  }
  rmSync(tmp, { recursive: true, force: true });
});

interface Ran {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  stillRunning: boolean;
}

/** `line` in sh (the docs are shell lines: quotes, $PWD), stdin closed; stopped after `stopAfterMs`. */
async function run(line: string, cwd: string, stopAfterMs: number, servesUntilStopped = false): Promise<Ran> {
  const child = spawn('sh', ['-c', line], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => void (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => void (stderr += d.toString()));
  let stillRunning = false;
  const timer = setTimeout(() => {
    stillRunning = true;
    try {
      process.kill(-child.pid!, 'SIGTERM'); // the whole group: sh and what it started
    } catch {
      /* gone */
    }
  }, stopAfterMs);
  const end = await exited(child, `the documented command: ${line}`, stopAfterMs + 15_000).finally(() =>
    clearTimeout(timer),
  );
  if (stillRunning && !servesUntilStopped) stderr += `\n[still running after ${stopAfterMs} ms]`;
  return { code: end.code, signal: end.signal, stdout, stderr, stillRunning };
}

/** Flags a usage synopsis names (`[--port N]`, `--lsp LANG=COMMAND`). */
const flagsOf = (line: string) => [...new Set(line.match(/--[a-z][a-z-]*/g) ?? [])];

describe('every command line the docs show', () => {
  const commands = docCommands(ROOT);

  it('finds the documented lines (a parser that finds none would pass vacuously)', () => {
    expect(commands.length).toBeGreaterThanOrEqual(30);
    for (const b of ['idea', 'idea-mcp', 'idea-server', 'idea-conformance', 'idea-spec'])
      expect(
        commands.some((c) => c.commands.some((x) => x.bin === b)),
        b,
      ).toBe(true);
  });

  it.each(commands.map((c) => [c.where, c] as const))(
    '%s',
    async (_where, c) => {
      for (const { bin, line: raw } of c.commands) {
        // Outside the runner's own temp folder nothing is written: /tmp/x becomes <tmp>/x.
        const line = raw.replaceAll(/(^|\s)\/tmp\//g, `$1${tmp}/`);
        if (/\s\[--/.test(line)) {
          // A usage synopsis: every flag it names is one the bin's --help names.
          const help = await run(`${bin} --help`, ws, FINISH_MS);
          expect(help.code, help.stderr).toBe(0);
          const missing = flagsOf(line).filter((f) => !help.stdout.includes(f));
          expect(missing, `${c.where}: flags the synopsis names that ${bin} --help does not`).toEqual([]);
          continue;
        }
        // idea-spec works on the spec repository around it (its README: "in a spec repository").
        const cwd = bin === 'idea-spec' ? ROOT : ws;
        const serving = serves(line);
        const r = await run(line, cwd, serving ? SERVING_MS : FINISH_MS, serving);
        const said = `${c.where}: ${line}\nexit ${r.code ?? r.signal}\nstdout: ${r.stdout.slice(0, 800)}\nstderr: ${r.stderr.slice(0, 1500)}`;
        expect(r.stderr, said).not.toMatch(UNEXPECTED);
        if (!r.stillRunning) expect(r.code, said).not.toBe(2);
        if (serving && !r.stillRunning) expect(r.code, `${said}\n(it should have kept serving)`).toBe(0);
        if (/--(help|version)\b/.test(line)) expect(r.code, said).toBe(0);
      }
    },
    120_000,
  );
});
