// Shared by the live extension tests: build the bundle, build the fixture workspace, launch one host.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFixtureWorkspace, type FixtureWorkspaceInfo } from '../../conformance/workspace';
import { connect, type IdeaClient } from '../../generated/v0.1.6/client';
import { type LiveHost, launchHost } from '../../livehost';
import { buildTarget } from '../../scripts/build';

export const EXTENSION_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../extension');

export interface LiveFixture {
  host: LiveHost;
  ws: FixtureWorkspaceInfo;
  client: IdeaClient;
  base: string;
  close(): Promise<void>;
}

export interface LiveFixtureOptions {
  /** User settings of the host (machine scope lives here). */
  userSettings?: Record<string, unknown>;
  /** Runs on the fresh workspace before the host starts. */
  prepare?: (dir: string) => void;
}

export async function startLiveFixture(opts: LiveFixtureOptions = {}): Promise<LiveFixture> {
  const { userSettings = {}, prepare } = opts;
  await buildTarget('extension');
  const base = mkdtempSync(join(tmpdir(), 'idea-ext-live-'));
  const ws = buildFixtureWorkspace(join(base, 'ws'));
  prepare?.(ws.dir);
  const host = await launchHost({
    workspace: ws.dir,
    extensionDevPath: EXTENSION_DIR,
    userSettings,
    memorySampleMs: 500,
  });
  let client: IdeaClient;
  try {
    client = await connect({ url: host.url, token: host.token, validate: true, timeoutMs: 60_000 });
  } catch (e) {
    await host.close();
    throw e;
  }
  return {
    host,
    ws,
    client,
    base,
    async close() {
      client.close();
      await host.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** Column of `token` in line `line` of a workspace file (fixtures move; positions are looked up). */
export function col(ws: string, file: string, line: number, token: string): number {
  const text = readFileSync(join(ws, file), 'utf8').split('\n')[line] ?? '';
  const c = text.indexOf(token);
  if (c < 0) throw new Error(`"${token}" not on line ${line} of ${file}`);
  return c;
}

/** The error code a rejected call carries. */
export async function errorCode(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'no error';
  } catch (e) {
    return String((e as { code?: unknown }).code ?? (e as Error).message);
  }
}
