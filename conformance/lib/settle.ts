// After the runner restored files behind the server's back (a reset after a destructive case), the next
// case must not meet the server's old view of them. What a following case depends on is what edit/find
// and edit/replace see: T13 wants replace to work on the files on disk, and a server that searches open
// editor documents instead only sees the restored text once its editor has reloaded them. So the runner
// asks the server, through the protocol, until edit/find shows exactly the restored lines of every
// restored file (and nothing of a removed one), bounded by a timeout, instead of sleeping a fixed time.
import { randomUUID } from 'node:crypto';
import { relative } from 'node:path';
import { Connection } from './connection';

export const FIND_TOPIC = '/app/vscode/edit/find';

/** A file the reset wrote back (`text`) or removed (`text: null`), relative to the workspace root. */
export interface SettleFile {
  path: string;
  text: string | null;
}

export interface SettleResult {
  /** The server showed the restored files before the timeout. */
  settled: boolean;
  /** Milliseconds spent waiting (probing included). */
  ms: number;
  /** Probe requests sent. */
  probes: number;
  /** Why the probe is given up for the rest of the run (the server cannot answer it usefully). */
  unusable?: string;
  /** What still differed at the timeout. */
  detail?: string;
}

/** A path a glob matches only literally (no glob syntax, no brace separator). */
const globSafe = (p: string) => !/[*?[\]{},\\!]/.test(p);

interface FindMatch {
  filePath: string;
  line: number;
  lineText: string;
}

/** `path\nline\ntext` keys of what a regex `.+` finds in the restored files (a removed file: none). */
function expectedKeys(files: readonly SettleFile[]): string[] {
  const keys: string[] = [];
  for (const f of files) {
    if (f.text === null) continue;
    f.text.split('\n').forEach((raw, line) => {
      const text = raw.replace(/\r$/, '');
      if (text.length > 0) keys.push(`${f.path}\n${line}\n${text.trim()}`);
    });
  }
  return keys.sort();
}

export class SettleProbe {
  private conn: Connection | undefined;
  private gaveUp: string | undefined;

  /** Why the probe was given up (the server cannot answer it usefully), if it was. */
  get unusable(): string | undefined {
    return this.gaveUp;
  }

  constructor(
    private readonly url: string,
    private readonly token: string | undefined,
    private readonly workspaceDir: string,
  ) {}

  /** Waits until edit/find shows `files` as restored, at most `timeoutMs`. */
  async wait(files: readonly SettleFile[], timeoutMs: number): Promise<SettleResult> {
    const started = performance.now();
    const probed = files.filter((f) => globSafe(f.path));
    if (this.gaveUp || probed.length === 0 || timeoutMs <= 0) return { settled: true, ms: 0, probes: 0 };
    const include = probed.length === 1 ? probed[0]!.path : `{${probed.map((f) => f.path).join(',')}}`;
    const want = expectedKeys(probed).join('\n\n');
    let probes = 0;
    let pause = 10;
    let last = '';
    for (;;) {
      probes++;
      const got = await this.find(include, Math.max(1000, timeoutMs));
      const ms = () => Math.round(performance.now() - started);
      if (typeof got === 'string') {
        this.gaveUp = got;
        return { settled: false, ms: ms(), probes, unusable: got };
      }
      const seen = got
        .map((m) => `${relative(this.workspaceDir, m.filePath).split('\\').join('/')}\n${m.line}\n${m.lineText.trim()}`)
        .sort()
        .join('\n\n');
      if (seen === want) return { settled: true, ms: ms(), probes };
      last = seen;
      if (performance.now() - started + pause > timeoutMs) {
        // Not again for every reset: a server whose answer never matches (for a reason of its own) would
        // cost the whole timeout each time. The runner falls back to the fixed wait.
        this.gaveUp = `it did not show the restored files within ${timeoutMs} ms once`;
        return {
          settled: false,
          ms: ms(),
          probes,
          detail: `edit/find of ${include} still shows ${describeDiff(want, last)}`,
        };
      }
      await new Promise((r) => setTimeout(r, pause));
      pause = Math.min(pause * 2, 200);
    }
  }

  /** The matches of a `.+` regex find over `include`, or why the probe cannot be used. */
  private async find(include: string, timeoutMs: number): Promise<FindMatch[] | string> {
    const conn = await this.connection(timeoutMs);
    if (typeof conn === 'string') return conn;
    const requestId = randomUUID();
    conn.send({
      topic: FIND_TOPIC,
      requestId,
      params: { pattern: '.+', isRegex: true, isCaseSensitive: true, include },
    });
    for (;;) {
      const got = await conn.next(timeoutMs);
      if (got?.kind !== 'frame') {
        this.conn = undefined;
        return `no answer to the settle probe (${FIND_TOPIC}) within ${timeoutMs} ms`;
      }
      let frame: {
        requestId?: unknown;
        result?: { matches?: unknown; totalCount?: unknown };
        error?: { code?: unknown; message?: unknown };
      };
      try {
        frame = JSON.parse(got.text);
      } catch {
        continue;
      }
      if (frame.requestId !== requestId) continue;
      if (frame.error)
        return `the server answered the settle probe (${FIND_TOPIC}) with ${String(frame.error.code)}: ${String(frame.error.message)}`;
      const matches = frame.result?.matches;
      if (
        !Array.isArray(matches) ||
        matches.some(
          (m) => typeof m?.filePath !== 'string' || typeof m?.line !== 'number' || typeof m?.lineText !== 'string',
        )
      ) {
        return `the server's answer to the settle probe (${FIND_TOPIC}) has no usable matches`;
      }
      if (typeof frame.result?.totalCount === 'number' && frame.result.totalCount > matches.length)
        return `the server truncated the settle probe's matches`;
      return matches as FindMatch[];
    }
  }

  private async connection(timeoutMs: number): Promise<Connection | string> {
    if (this.conn && !this.conn.closed) return this.conn;
    try {
      const conn = await Connection.open(this.url, { timeoutMs });
      conn.send(this.token === undefined ? { type: 'handshake' } : { type: 'handshake', token: this.token });
      const got = await conn.next(timeoutMs);
      if (got?.kind !== 'frame' || JSON.parse(got.text)?.error) {
        await conn.close();
        return 'the settle probe could not open a session with the server';
      }
      this.conn = conn;
      return conn;
    } catch (e) {
      return `the settle probe could not connect: ${(e as Error).message}`;
    }
  }

  async close(): Promise<void> {
    await this.conn?.close();
    this.conn = undefined;
  }
}

/** The first line that differs between what was expected and what the server showed. */
function describeDiff(want: string, seen: string): string {
  const a = want.split('\n\n');
  const b = new Set(seen.split('\n\n'));
  const missing = a.find((k) => !b.has(k));
  if (missing !== undefined) {
    const [path, line, text] = missing.split('\n');
    return `${path} line ${line} not as restored (want ${JSON.stringify(text)})`;
  }
  const wanted = new Set(a);
  const extra = [...b].find((k) => k && !wanted.has(k));
  if (extra) {
    const [path, line, text] = extra.split('\n');
    return `${path} line ${line} with ${JSON.stringify(text)}, which the reset removed`;
  }
  return 'a different set of lines';
}
