// The extension's ready signal (contract with extension/): once its server listens it writes the bound
// port and the token into <workspace>/.vscode/settings.json as idea.server.port / idea.server.authToken.
import { readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseJsonc } from '../runtime/jsonc';

export interface ReadySignal {
  port: number;
  token: string;
  /** The settings file as it was when the signal was read (to know later whether anyone changed it). */
  settingsText: string;
}

export function workspaceSettingsPath(workspace: string): string {
  return join(workspace, '.vscode', 'settings.json');
}

/** mtime + content of the settings file before launch: a file left by an earlier run is not a ready signal. */
export interface SettingsSnapshot { mtimeMs: number; text: string }

export function snapshotSettings(workspace: string): SettingsSnapshot | undefined {
  const file = workspaceSettingsPath(workspace);
  try {
    return { mtimeMs: statSync(file).mtimeMs, text: readFileSync(file, 'utf8') };
  } catch {
    return undefined;
  }
}

/** The signal if the file now holds a valid port and token written after `before`; undefined otherwise. */
export function readReadySignal(workspace: string, before: SettingsSnapshot | undefined): ReadySignal | undefined {
  const now = snapshotSettings(workspace);
  if (!now) return undefined;
  if (before && now.mtimeMs === before.mtimeMs && now.text === before.text) return undefined;
  let v: unknown;
  try {
    v = parseJsonc(now.text);
  } catch {
    return undefined; // half-written or foreign edit: try again on the next poll
  }
  if (!v || typeof v !== 'object') return undefined;
  const port = (v as Record<string, unknown>)['idea.server.port'];
  const token = (v as Record<string, unknown>)['idea.server.authToken'];
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  if (typeof token !== 'string' || token.length === 0) return undefined;
  return { port, token, settingsText: now.text };
}

/**
 * After teardown, puts <workspace>/.vscode/settings.json back as it was before launch (removing the file,
 * and .vscode/ if it was created and is empty), so no stale port/token is left behind. Only when the file
 * still holds exactly what the extension wrote: an edit made during the session is never thrown away.
 */
export function restoreWorkspaceSettings(workspace: string, before: SettingsSnapshot | undefined,
  signal: ReadySignal): 'restored' | 'changed-since' | 'missing' {
  const file = workspaceSettingsPath(workspace);
  let current: string;
  try { current = readFileSync(file, 'utf8'); } catch { return 'missing'; }
  if (current !== signal.settingsText) return 'changed-since';
  if (before) {
    writeFileSync(file, before.text);
  } else {
    unlinkSync(file);
    try { rmdirSync(dirname(file)); } catch { /* not empty: it holds other files */ }
  }
  return 'restored';
}
