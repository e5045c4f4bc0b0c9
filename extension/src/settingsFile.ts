// Writes the bound port and the token into a workspace's .vscode/settings.json, which is how IDEA
// clients find the server. The file is JSON with comments: existing values are replaced in place and
// new keys inserted after the opening brace, so the user's other keys, comments and layout survive.
// (VS Code's configuration API cannot do it: authToken is machine-scoped, so a workspace target is refused.)
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseJsonc } from '../../runtime/jsonc';

type Value = string | number | boolean;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Returns `text` with the given top-level keys set; throws if `text` is not a JSON(C) object. */
export function setSettingsKeys(text: string, values: Record<string, Value>): string {
  if (text.trim() === '') return JSON.stringify(values, null, 2) + '\n';
  const parsed = parseJsonc(text);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('settings.json is not a JSON object');
  let out = text;
  const missing: [string, Value][] = [];
  for (const [key, value] of Object.entries(values)) {
    const re = new RegExp(`("${escapeRe(key)}"\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*"|-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?|true|false|null)`);
    if (key in (parsed as object) && re.test(out)) out = out.replace(re, (_m, head: string) => head + JSON.stringify(value));
    else missing.push([key, value]);
  }
  if (missing.length > 0) {
    const brace = out.indexOf('{');
    const isEmpty = Object.keys(parsed as object).length === 0 && !/[^\s{}]/.test(stripComments(out));
    const lines = missing.map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
    const insert = isEmpty ? `\n${lines.join(',\n')}\n` : `\n${lines.join(',\n')},`;
    out = out.slice(0, brace + 1) + insert + out.slice(brace + 1);
  }
  // Never write something that does not read back as intended; fall back to a plain rewrite.
  try {
    const check = parseJsonc(out) as Record<string, unknown>;
    if (Object.entries(values).every(([k, v]) => check[k] === v)) return out;
  } catch {
    /* fall through */
  }
  return JSON.stringify({ ...(parsed as object), ...values }, null, 2) + '\n';
}

function stripComments(s: string): string {
  return s.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
}

/** Updates (or creates) the settings file atomically. */
export function writeSettingsKeys(file: string, values: Record<string, Value>): void {
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const after = setSettingsKeys(before, values);
  if (after === before) return;
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, after);
  renameSync(tmp, file);
}
