// A few hundred schema-derived bad frames, plus schema-valid ones the extension must refuse (paths
// outside the workspace, unknown local-history ids), against our extension in a real VS Code on the
// fixture workspace: every one gets the right structured error, the server keeps serving, and no file
// of the workspace, its git state or VS Code's local history changes.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_VERSION } from '../../generated/current';
import { type LiveFixture, startLiveFixture } from '../extension/helpers';
import { type BadFrame, generateBadFrames, semanticBadFrames } from './bad-frames';
import { generatedValidator, spec } from './harness';
import { RawClient } from './raw-client';
import { diffSnapshots, snapshotTree } from './tree-hash';

const o = spec();
const validateResponseError = generatedValidator('ResponseError');
const validateResponseSuccess = generatedValidator('ResponseSuccess');
const INSIDE = 'src/shapes.ts';
// Read-only requests that must keep succeeding on the fixture workspace.
const PROBES = [
  { topic: '/app/vscode/fs/findFiles', params: { query: 'shapes' } },
  { topic: '/app/vscode/edit/find', params: { pattern: 'needle' } },
  { topic: '/app/vscode/history/list', params: { filePath: INSIDE } },
];

let fx: LiveFixture;
let raw: RawClient;
const gitState = (dir: string) =>
  execFileSync('git', ['-C', dir, 'log', '--all', '--format=%H %D'], { encoding: 'utf8' }) +
  execFileSync('git', ['-C', dir, 'status', '--porcelain', '--untracked-files=all'], { encoding: 'utf8' });

beforeAll(async () => {
  fx = await startLiveFixture();
  raw = await RawClient.open(fx.host.url);
  // The extension announces the served version; its answers are held to v0.1.6's schemas (0.1.7 is additive).
  expect((await raw.handshake(fx.host.token)).version).toBe(CURRENT_VERSION);
});
afterAll(async () => {
  await raw?.close();
  await fx?.close();
});

async function exchange(text: string, requestId: string, what: string): Promise<any> {
  raw.send(text);
  // Errors for frames without a usable requestId echo "": those are answered in order, one at a time.
  return raw
    .next((f) => f.requestId === requestId, 30_000)
    .catch((e) => {
      throw new Error(`${what}: ${e.message}`);
    });
}

describe('bad input against the live extension', () => {
  it('every bad frame gets the right error; the server keeps serving; nothing on disk changes', async () => {
    const dir = fx.ws.dir;
    const historyDir = join(fx.host.userDataDir, 'User', 'History');
    const before = {
      tree: snapshotTree(dir),
      git: gitState(dir),
      history: existsSync(historyDir) ? snapshotTree(historyDir, []) : new Map(),
    };
    // Every other generated frame (all categories, every topic) and every semantic one: a few hundred.
    const generated = generateBadFrames(o, { hugeChars: 256 * 1024 });
    const frames: BadFrame[] = [...generated.filter((_, i) => i % 2 === 0), ...semanticBadFrames(o, dir, INSIDE)];
    expect(frames.length).toBeGreaterThan(200);
    const wrong: string[] = [];
    for (const [i, f] of frames.entries()) {
      const reply = await exchange(f.text, f.requestId, f.kind);
      const ok = validateResponseError(reply) && reply.error.code === f.code && reply.topic === f.topic;
      if (!ok)
        wrong.push(
          `${f.kind}: expected ${f.code}, got ${JSON.stringify(reply).slice(0, 200)} for ${f.text.slice(0, 150)}`,
        );
      if (i % 10 === 9) {
        const p = PROBES[((i / 10) % PROBES.length) | 0]!;
        const id = crypto.randomUUID();
        const r = await exchange(JSON.stringify({ ...p, requestId: id }), id, `probe ${p.topic}`);
        if (!validateResponseSuccess(r))
          wrong.push(`probe ${p.topic} after ${f.kind} failed: ${JSON.stringify(r).slice(0, 200)}`);
      }
    }
    console.log(
      `[bad-input.live] ${frames.length} bad frames (${frames.filter((f) => f.kind.startsWith('semantic')).length} semantic), ${wrong.length} wrong`,
    );
    expect(wrong).toEqual([]);
    expect(raw.isOpen).toBe(true);
    const after = {
      tree: snapshotTree(dir),
      git: gitState(dir),
      history: existsSync(historyDir) ? snapshotTree(historyDir, []) : new Map(),
    };
    expect(diffSnapshots(before.tree, after.tree)).toEqual([]);
    expect(after.git).toBe(before.git);
    expect(diffSnapshots(before.history, after.history)).toEqual([]);
  }, 300_000);
});
