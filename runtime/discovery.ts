// Discovery: how a client finds the IDEA server serving a workspace. The contract existing IDEA
// clients use (wire compatibility): once it listens, the server writes the port it bound and, unless
// idea.server.exposeToken is off, its token into the first workspace folder's .vscode/settings.json
// as `idea.server.port` / `idea.server.authToken`. The extension writes them
// (extension/src/settings-file.ts), the live host waits for them (livehost/ready-signal.ts), the
// conformance CLI reads them; all of them take the key names and the validation from here.
//
// Which server serves a folder (the per-user registry first, these keys second) is decided in
// runtime/locate.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonc } from './jsonc.js';

/** The settings keys, as existing clients read them. */
export const DISCOVERY_KEYS = { port: 'idea.server.port', token: 'idea.server.authToken' } as const;

/** Servers bind loopback only (runtime/ws-server.ts); discovered ports are reached here. */
export const DISCOVERY_HOST = '127.0.0.1';

export interface Discovered {
  /** Which source found it, e.g. "workspace settings". */
  source: string;
  port: number;
  url: string;
  /** Absent when the server does not expose its token there. */
  token?: string;
}

export interface DiscoverySource {
  readonly name: string;
  /** The server for `workspace` as this source knows it; undefined when it knows none. Never throws. */
  find(workspace: string): Discovered | undefined;
}

export function serverUrl(port: number): string {
  return `ws://${DISCOVERY_HOST}:${port}`;
}

/** <workspace>/.vscode/settings.json */
export function workspaceSettingsFile(workspace: string): string {
  return join(workspace, '.vscode', 'settings.json');
}

export function isPort(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 65535;
}

/**
 * The discovery keys of a settings file's text, each only when valid (port an integer 1–65535, token
 * a non-empty string). Throws when the text is not a JSON(C) object (a half-written file).
 */
export function parseDiscoveryKeys(text: string): { port?: number; token?: string } {
  const v = parseJsonc(text);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('settings.json is not a JSON object');
  const port = (v as Record<string, unknown>)[DISCOVERY_KEYS.port];
  const token = (v as Record<string, unknown>)[DISCOVERY_KEYS.token];
  return {
    ...(isPort(port) ? { port } : {}),
    ...(typeof token === 'string' && token.length > 0 ? { token } : {}),
  };
}

/** The workspace's .vscode/settings.json: what existing IDEA clients read. */
export const workspaceSettingsSource: DiscoverySource = {
  name: 'workspace settings',
  find(workspace) {
    let keys: { port?: number; token?: string };
    try {
      keys = parseDiscoveryKeys(readFileSync(workspaceSettingsFile(workspace), 'utf8'));
    } catch {
      return undefined; // no file, unreadable or half-written
    }
    if (keys.port === undefined) return undefined;
    return {
      source: 'workspace settings',
      port: keys.port,
      url: serverUrl(keys.port),
      ...(keys.token ? { token: keys.token } : {}),
    };
  },
};
