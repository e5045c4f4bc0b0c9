// `idea watch diagnostics|files|editor`: subscribes to one event and streams it until interrupted.
// Text for people (result-text's formatEvent, one line per change), `--json` as NDJSON: one event
// frame's data per line, with `dropped` added when the server reports events it dropped before it.
// Ctrl-C unsubscribes, closes and resolves 0; the server going away resolves "closed".
import { formatEvent } from '@idea-kit/result-text/format';
import type { EventName, IdeaClient } from './protocol';

export interface WatchOptions {
  json: boolean;
  color: boolean;
  cwd: string;
  out(text: string): void;
  /** Said once subscribed (stderr): what is watched and how to stop. */
  note(text: string): void;
  /** Resolves when the person asks to stop (SIGINT). */
  interrupted: Promise<void>;
}

/** How long unsubscribing may take on the way out before the connection is closed anyway. */
const UNSUBSCRIBE_MS = 2_000;

/** Throws NotAdvertisedError when the server does not push `event`; else streams until stopped. */
export async function watch(client: IdeaClient, event: EventName, o: WatchOptions): Promise<'interrupted' | 'closed'> {
  const advertised = client.handshake.events ?? [];
  if (!advertised.includes(event)) throw new NotAdvertisedError(event, client.handshake.version, advertised);
  const off = client.on(event, (data, dropped) => {
    if (o.json) {
      o.out(`${JSON.stringify(dropped > 0 ? { ...data, dropped } : data)}\n`);
      return;
    }
    if (dropped > 0) o.note(`idea: the server dropped ${dropped} events before this one (read too slowly)\n`);
    const text = formatEvent(event, data, { color: o.color, cwd: o.cwd });
    if (text !== '') o.out(`${text}\n`);
  });
  try {
    // The current state first (diagnostics: every known file's set; editor: its state), then changes.
    const unsubscribe = await client.subscribe([event], { initial: true });
    o.note(`idea: watching ${event} (Ctrl-C stops)\n`);
    const how = await Promise.race([
      o.interrupted.then(() => 'interrupted' as const),
      client.closed.then(() => 'closed' as const),
    ]);
    if (how === 'interrupted') {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, UNSUBSCRIBE_MS)));
      await Promise.race([unsubscribe().catch(() => undefined), late]).finally(() => clearTimeout(timer));
    }
    return how;
  } finally {
    off();
  }
}

export class NotAdvertisedError extends Error {
  override readonly name = 'NotAdvertisedError';
  constructor(event: string, version: string, advertised: readonly string[]) {
    super(
      `the IDEA server (protocol ${version}) does not push ${event}` +
        (advertised.length > 0 ? ` (it pushes: ${advertised.join(', ')})` : ' (it pushes no events)'),
    );
  }
}
