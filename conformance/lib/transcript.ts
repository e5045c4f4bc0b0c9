// What a case sent and received, for the reports: every connection's frames in order, the token (and
// the prefix of it the protocol cases send) replaced, each frame and the whole list bounded so that a
// server answering with megabytes (or the oversize cases' own frames) cannot blow up a report.
import type { Traffic } from './connection';

export interface TranscriptEntry extends Traffic {
  /** 1-based: which of the case's connections. */
  connection: number;
  /** The frame's full length in characters, when `text` was cut. */
  length?: number;
  /** The runner's own handshake before the case proper (the handshake cases check theirs themselves). */
  handshake?: true;
}

/** Characters kept of one frame, and frames kept of one case (the rest is counted, not shown). */
export const TRANSCRIPT_FRAME_CHARS = 2000;
export const TRANSCRIPT_FRAMES = 40;

/** `secrets` are replaced wherever they appear, longest first, as written and as JSON-escaped. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  const forms = secrets.filter((s) => s.length > 0).flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]);
  for (const s of [...new Set(forms)].sort((a, b) => b.length - a.length)) out = out.split(s).join('‹redacted›');
  return out;
}

/** `own`: per connection, how many leading traffic entries were the runner's own handshake. */
export function transcriptOf(
  connections: readonly { traffic: readonly Traffic[]; own?: number }[],
  secrets: readonly string[],
): { entries: TranscriptEntry[]; omitted: number } {
  const all = connections.flatMap((c, k) =>
    c.traffic.map((t, i) => ({ ...t, connection: k + 1, handshake: i < (c.own ?? 0) })),
  );
  const entries = all.slice(0, TRANSCRIPT_FRAMES).map((t): TranscriptEntry => {
    // Cut first (a frame may be megabytes), then redact; a secret cut in half at the end is dropped with the rest of the line.
    const cut = t.text.length > TRANSCRIPT_FRAME_CHARS;
    const head = cut ? t.text.slice(0, TRANSCRIPT_FRAME_CHARS) : t.text;
    const text = cut
      ? redact(head.slice(0, head.length - Math.max(0, ...secrets.map((s) => JSON.stringify(s).length))), secrets)
      : redact(head, secrets);
    return {
      connection: t.connection,
      direction: t.direction,
      text,
      ...(cut ? { length: t.text.length } : {}),
      ...(t.handshake ? { handshake: true as const } : {}),
    };
  });
  return { entries, omitted: all.length - entries.length };
}
