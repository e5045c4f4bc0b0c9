// Starting the built idea-server as users run it and waiting, bounded, for its registry entry (what
// every client waits for). Shared by the tests that drive the bin.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { poll } from '../../runtime/poll';
import { parseRegistryEntry, type RegistryEntry } from '../../runtime/registry';
import { ROOT } from '../../scripts/build';
import { exitStatus } from '../support/processes';

/** The built bin (`buildTarget('server')`). */
export const IDEA_SERVER_BIN = join(ROOT, 'idea-server', 'dist', 'idea-server.mjs');

export interface Started {
  child: ChildProcess;
  entry: RegistryEntry;
  stderr: () => string;
}

/** A restart replays the write journal before it registers; a loaded CI machine takes seconds. */
export const REGISTER_TIMEOUT_MS = 60_000;

export async function startServer(
  bin: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  registry: string,
): Promise<Started> {
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const entry = await poll(
    () => {
      const gone = exitStatus(child);
      if (gone) throw new Error(`idea-server exited (${gone.code ?? gone.signal}) before it registered: ${err}`);
      const file = existsSync(registry) ? readdirSync(registry).find((n) => n.startsWith(`${child.pid}-`)) : undefined;
      const parsed = file ? parseRegistryEntry(readFileSync(join(registry, file), 'utf8')) : undefined;
      return typeof parsed === 'object' ? parsed : undefined;
    },
    { timeoutMs: REGISTER_TIMEOUT_MS, intervalMs: 50 },
  );
  if (!entry) {
    child.kill('SIGKILL');
    throw new Error(`idea-server did not register within ${REGISTER_TIMEOUT_MS / 1000} s: ${err}`);
  }
  return { child, entry, stderr: () => err };
}
