// The compiled bundle as a process (against an in-process server): what only a process shows.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../../cli/build';
import type { EditFindResult } from '../../generated/v0.1.6/types';
import { startFakeServer, type FakeServer } from './fake-server';

let srv: FakeServer;
let cli: string;

beforeAll(async () => {
  cli = await buildCli();
  srv = await startFakeServer({
    async editFind(): Promise<EditFindResult> {
      const matches = Array.from({ length: 20_000 }, (_, i) => ({ filePath: join(srv.workspace, 'a.ts'), line: i, character: 0, lineText: `needle ${'x'.repeat(80)}` }));
      return { matches, totalCount: matches.length };
    },
  });
}, 60_000);
afterAll(() => srv?.close());

describe('idea as a process', () => {
  it('a reader that goes away (idea find … | head -1) ends it quietly with its exit code', async () => {
    const child = spawn(process.execPath, [cli, 'find', 'needle'], { cwd: srv.workspace, env: { ...process.env, IDEA_REGISTRY_DIR: srv.registry, IDEA_TOKEN: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
    const first = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString())));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(first).toMatch(/^a\.ts:1:1: needle /);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
