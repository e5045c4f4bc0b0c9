// Tails of the host's logs, for error messages that explain a failed launch without opening the run folder.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export function tailFile(file: string, lines = 30): string {
  try {
    const text = readFileSync(file, 'utf8');
    return text.split('\n').filter((l) => l.trim()).slice(-lines).join('\n');
  } catch {
    return '(missing)';
  }
}

function walk(dir: string, out: string[] = []): string[] {
  let entries;
  try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return out; }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile() && e.name.endsWith('.log')) out.push(p);
  }
  return out;
}

/** Extension host logs under <udd>/logs/<session>/ (remoteexthost.log, exthost*\/...), newest first. */
export function extensionHostLogs(userDataDir: string): string[] {
  const logs = walk(join(userDataDir, 'logs')).filter((p) => /exthost/i.test(relative(userDataDir, p)));
  return logs.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
}

export function describeLogs(codeServerLog: string, userDataDir: string, lines = 25): string {
  const parts = [`--- code-server log (${codeServerLog}) ---\n${tailFile(codeServerLog, lines)}`];
  const ext = extensionHostLogs(userDataDir).slice(0, 3);
  if (!ext.length) parts.push('--- extension host log: none written (did the workbench connect?) ---');
  for (const f of ext) parts.push(`--- ${relative(userDataDir, f)} ---\n${tailFile(f, lines)}`);
  return parts.join('\n');
}
