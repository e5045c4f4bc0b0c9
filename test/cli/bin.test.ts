// The compiled bundle as a process (against an in-process server): what only a process shows.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_PROTOCOL as V014_PROTOCOL } from '../../generated/v0.1.4/server';
import type { EditFindResult } from '../../generated/v0.1.6/types';
import { buildTarget } from '../../scripts/build';
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
