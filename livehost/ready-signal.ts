// The extension's ready signal (contract with extension/): once its server listens it writes the bound
// port (and, with exposeToken, the token) into <workspace>/.vscode/settings.json, the discovery keys of
// runtime/discovery.ts, and then registers itself in the per-user registry (runtime/registry.ts), whose
// entry always carries the token. launch.ts waits for both.
import { readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseDiscoveryKeys, workspaceSettingsFile } from '../runtime/discovery';

export interface ReadySignal {
  port: number;
  /** From the settings file; absent when the extension does not expose it there (the registry has it). */
  token?: string;
  /** The settings file as it was when the signal was read (to know later whether anyone changed it). */
  settingsText: string;
}

/** mtime + content of the settings file before launch: a file left by an earlier run is not a ready signal. */
export interface SettingsSnapshot {
  mtimeMs: number;
  text: string;
}

export function snapshotSettings(workspace: string): SettingsSnapshot | undefined {
  const file = workspaceSettingsFile(workspace);
  try {
    return { mtimeMs: statSync(file).mtimeMs, text: readFileSync(file, 'utf8') };
  } catch {
    return undefined;
  }
}

/** The settings part of the signal: the file holds a valid port written after `before`; undefined otherwise. */
export function readReadySignal(workspace: string, before: SettingsSnapshot | undefined): ReadySignal | undefined {
  const now = snapshotSettings(workspace);
  if (!now) return undefined;
  if (before && now.mtimeMs === before.mtimeMs && now.text === before.text) return undefined;
  let keys: { port?: number; token?: string };
  try {
    keys = parseDiscoveryKeys(now.text);
  } catch {
    return undefined; // half-written or foreign edit: try again on the next poll
  }
  if (keys.port === undefined) return undefined;
  return { port: keys.port, ...(keys.token !== undefined ? { token: keys.token } : {}), settingsText: now.text };
}

/**
 * After teardown, puts <workspace>/.vscode/settings.json back as it was before launch (removing the file,
 * and .vscode/ if it was created and is empty), so no stale port/token is left behind. Only when the file
 * still holds exactly what the extension wrote: an edit made during the session is never thrown away.
 */
export function restoreWorkspaceSettings(
  workspace: string,
  before: SettingsSnapshot | undefined,
  signal: ReadySignal,
): 'restored' | 'changed-since' | 'missing' {
  const file = workspaceSettingsFile(workspace);
  let current: string;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    return 'missing';
  }
  if (current !== signal.settingsText) return 'changed-since';
  if (before) {
    writeFileSync(file, before.text);
  } else {
    unlinkSync(file);
    try {
      rmdirSync(dirname(file));
    } catch {
      /* not empty: it holds other files */
    }
  }
  return 'restored';
}
