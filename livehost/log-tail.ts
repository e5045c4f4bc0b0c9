// Tails of the host's logs, for error messages that explain a failed launch without opening the run folder.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

function tailFile(file: string, lines = 30): string {
  try {
    const text = readFileSync(file, 'utf8');
    return text
      .split('\n')
      .filter((l) => l.trim())
      .slice(-lines)
      .join('\n');
  } catch {
    return '(missing)';
  }
}

function walk(dir: string, out: string[] = []): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile() && e.name.endsWith('.log')) out.push(p);
  }
  return out;
}

/**
 * Extension host logs under <udd>/logs/<session>/exthost*\/: the host's own log (remoteexthost.log) first,
 * then the logs of `extensionId` (its output channels), then the rest, newest first.
 */
function extensionHostLogs(userDataDir: string, extensionId?: string): string[] {
  const rank = (p: string) =>
    /remoteexthost\.log$|exthost\.log$/.test(p)
      ? 0
      : extensionId && p.toLowerCase().includes(extensionId.toLowerCase())
        ? 1
        : 2;
  const logs = walk(join(userDataDir, 'logs')).filter((p) => /exthost/i.test(relative(userDataDir, p)));
  const mtime = (p: string) => {
    try {
      return statSync(p).mtimeMs;
    } catch {
      return 0;
    }
  };
  return logs.sort((a, b) => rank(a) - rank(b) || mtime(b) - mtime(a));
}

export function describeLogs(codeServerLog: string, userDataDir: string, extensionId?: string, lines = 25): string {
  const parts = [`--- code-server log (${codeServerLog}) ---\n${tailFile(codeServerLog, lines)}`];
  const ext = extensionHostLogs(userDataDir, extensionId).slice(0, 3);
  if (!ext.length) parts.push('--- extension host log: none written (did the workbench connect?) ---');
  for (const f of ext) parts.push(`--- ${relative(userDataDir, f)} ---\n${tailFile(f, lines)}`);
  return parts.join('\n');
}
