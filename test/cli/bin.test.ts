// The compiled bundle as a process (against an in-process server): what only a process shows.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_PROTOCOL as V014_PROTOCOL } from '../../generated/v0.1.4/server';
import type { EditFindResult } from '../../generated/v0.1.6/types';
import { buildTarget } from '../../scripts/build';
import { until } from '../support/wait';
import { type EventServer, startEventServer } from './event-server';
import { type FakeServer, startFakeServer } from './fake-server';

let srv: FakeServer;
let cli: string;

beforeAll(async () => {
  cli = await buildTarget('cli');
  srv = await startFakeServer({
    async editFind(): Promise<EditFindResult> {
      const matches = Array.from({ length: 20_000 }, (_, i) => ({
        filePath: join(srv.workspace, 'a.ts'),
        line: i,
        character: 0,
        lineText: `needle ${'x'.repeat(80)}`,
      }));
      return { matches, totalCount: matches.length };
    },
  });
}, 60_000);
afterAll(() => srv?.close());

function idea(args: string[], server: FakeServer): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: server.workspace,
      env: { ...process.env, IDEA_REGISTRY_DIR: server.registry, IDEA_TOKEN: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('idea as a process', () => {
  it('a reader that goes away (idea find … | head -1) ends it quietly with its exit code', async () => {
    const child = spawn(process.execPath, [cli, 'find', 'needle'], {
      cwd: srv.workspace,
      env: { ...process.env, IDEA_REGISTRY_DIR: srv.registry, IDEA_TOKEN: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
    const first = await new Promise<string>((resolve) =>
      child.stdout.once('data', (d: Buffer) => resolve(d.toString())),
    );
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(first).toMatch(/^a\.ts:1:1: needle /);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it("talks to an older server (the bundle leaves out other versions' validators)", async () => {
    const old = await startFakeServer(
      {
        async fsFindFiles() {
          return { files: [], totalCount: 7 };
        },
      },
      { protocol: V014_PROTOCOL },
    );
    try {
      expect(await idea(['fs', 'findFiles', 'x', '--json'], old)).toEqual({
        code: 0,
        stdout: '{\n  "files": [],\n  "totalCount": 7\n}\n',
        stderr: '',
      });
      expect(old.received).toEqual([
        { topic: '/app/vscode/fs/findFiles', params: { query: 'x', include: '**/*', maxResults: 100 } },
      ]);
    } finally {
      await old.close();
    }
  });
});

/** `idea watch …` as a running process: its output so far, and a way to interrupt it and await its end. */
function watching(args: string[], server: EventServer, env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [cli, 'watch', ...args], {
    cwd: server.workspace,
    env: { ...process.env, IDEA_REGISTRY_DIR: server.registry, IDEA_TOKEN: '', ...env },
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => void (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (out.stderr += d.toString()));
  const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, out, ended };
}

describe('idea watch as a process', () => {
  let ev: EventServer;
  beforeAll(async () => {
    ev = await startEventServer({
      initial: {
        '/app/vscode/editor/changed': { activeFile: null, selections: [], visibleFiles: [], dirtyFiles: [] },
      },
    });
  });
  afterAll(() => ev?.close());

  it('--json streams each event as one NDJSON line; Ctrl-C unsubscribes and exits 0', async () => {
    const w = watching(['files', '--json'], ev);
    await until('the watch to subscribe', () => w.out.stderr.includes('watching /app/vscode/files/changed'), {
      timeoutMs: 10_000,
    });
    const a = join(ev.workspace, 'a.ts');
    ev.emit('/app/vscode/files/changed', { changes: [{ filePath: a, change: 'created' }] });
    ev.emit('/app/vscode/diagnostics/changed', { files: [] }); // not watched: never shown
    ev.emit('/app/vscode/files/changed', { changes: [{ filePath: a, change: 'deleted' }] });
    await until('two lines', () => w.out.stdout.split('\n').length === 3, { timeoutMs: 10_000 });
    expect(
      w.out.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([{ changes: [{ filePath: a, change: 'created' }] }, { changes: [{ filePath: a, change: 'deleted' }] }]);
    w.child.kill('SIGINT');
    expect(await w.ended).toBe(0);
    const subs = ev.frames.filter((f) => String(f.topic).startsWith('/app/vscode/events/'));
    expect(subs.map((f) => [f.topic, f.params])).toEqual([
      ['/app/vscode/events/subscribe', { events: ['/app/vscode/files/changed'], initial: true }],
      ['/app/vscode/events/unsubscribe', { events: ['/app/vscode/files/changed'] }],
    ]);
  });

  it('text: the current state first, then one line per change, paths relative to the folder', async () => {
    const w = watching(['diagnostics'], ev);
    const w2 = watching(['editor'], ev);
    await until('both to subscribe', () => w.out.stderr.includes('watching') && w2.out.stderr.includes('watching'), {
      timeoutMs: 10_000,
    });
    const f = join(ev.workspace, 'src', 'a.ts');
    const d = { line: 4, character: 6, endLine: 4, endCharacter: 7, source: 'ts', code: '2322' };
    ev.emit('/app/vscode/diagnostics/changed', {
      files: [
        {
          filePath: f,
          added: [{ ...d, severity: 'error', message: "Type 'string' is not assignable to type 'number'." }],
          removed: [{ ...d, line: 1, severity: 'warning', message: 'unused' }],
          total: 1,
        },
      ],
    });
    ev.emit('/app/vscode/editor/changed', {
      activeFile: f,
      selections: [{ line: 2, character: 0, activeLine: 2, activeCharacter: 3 }],
      visibleFiles: [f],
      dirtyFiles: [],
    });
    await until('the lines', () => w.out.stdout.split('\n').length === 3 && w2.out.stdout.split('\n').length === 3, {
      timeoutMs: 10_000,
    });
    expect(w.out.stdout).toBe(
      "- src/a.ts:2:7: warning ts 2322: unused\n+ src/a.ts:5:7: error ts 2322: Type 'string' is not assignable to type 'number'.\n",
    );
    expect(w2.out.stdout).toBe(
      'no active editor  visible: -  unsaved: -\nsrc/a.ts:3:4  visible: src/a.ts  unsaved: -\n',
    );
    w.child.kill('SIGINT');
    w2.child.kill('SIGINT');
    expect([await w.ended, await w2.ended]).toEqual([0, 0]);
  });

  it('an event the server does not push: exit 1 naming it; no server: exit 3; a bad name: exit 2', async () => {
    const none = await startEventServer({ events: ['/app/vscode/editor/changed'] });
    try {
      const w = watching(['files'], none);
      expect(await w.ended).toBe(1);
      expect(w.out.stderr).toBe(
        'idea: the IDEA server (protocol 0.1.7) does not push /app/vscode/files/changed (it pushes: /app/vscode/editor/changed)\n',
      );
      expect(none.topics()).toEqual([]);
    } finally {
      await none.close();
    }
    const gone = watching(['files', '--url', 'ws://127.0.0.1:1'], ev);
    expect(await gone.ended).toBe(3);
    expect(gone.out.stderr).toMatch(/^idea: cannot reach the IDEA server at ws:\/\/127\.0\.0\.1:1/);
    const bad = watching(['frobs'], ev);
    expect(await bad.ended).toBe(2);
    expect(bad.out.stderr).toMatch(/unknown event 'frobs' \(usage: idea watch diagnostics\|files\|editor \[--json\]\)/);
  });

  it('the server going away ends the watch with exit 3', async () => {
    const brief = await startEventServer();
    const w = watching(['files', '--json'], brief);
    await until('the watch to subscribe', () => w.out.stderr.includes('watching'), { timeoutMs: 10_000 });
    await brief.close();
    expect(await w.ended).toBe(3);
    expect(w.out.stderr).toContain('idea: the server closed the connection');
  });
});
