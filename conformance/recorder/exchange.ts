// A connection's traffic from its first accepted events/subscribe on, as the steps of an exchange case:
// pushed event frames cannot be replayed by a request case. Every frame the client sends is a `send`
// step; the frames the server sends before the client's next one are expected together (`expect` for
// one, `expectUnordered` for several: an answer and the events it causes may come in either order).
import { type GeneralizeContext, generalize } from './generalize';

export const SUBSCRIBE_TOPIC = '/app/vscode/events/subscribe';

/** Result lists whose order the protocol fixes (newest first); every other list is recorded `$unordered`. */
const ORDERED_LISTS = new Set(['entries']);

/** Top-level lists of a result or an event's data become `$unordered` unless the protocol orders them. */
export function unorderLists(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, Array.isArray(v) && !ORDERED_LISTS.has(k) ? { $unordered: v } : v]),
  );
}

type Frame = Record<string, unknown>;

export class ExchangeRecording {
  private readonly steps: unknown[] = [];
  private group: unknown[] = [];
  /** Every event the connection subscribed to (the case runs only where the server advertises them all). */
  readonly events = new Set<string>();
  /** Topics requested within the exchange (a write topic makes the case destructive). */
  readonly topics = new Set<string>();

  constructor(
    private readonly ctx: GeneralizeContext,
    subscribe: { requestId: string; params: unknown },
    answer: Frame,
  ) {
    this.sent({ topic: SUBSCRIBE_TOPIC, requestId: subscribe.requestId, params: subscribe.params });
    this.received(answer);
  }

  /** A JSON frame the client sent. */
  sent(frame: unknown): void {
    this.flush();
    if (frame && typeof frame === 'object' && !Array.isArray(frame)) {
      const { topic, requestId } = frame as Frame;
      if (typeof requestId === 'string' && typeof topic === 'string') this.topics.add(topic);
    }
    this.steps.push({ send: generalize(frame, this.ctx) });
  }

  /** A text frame the client sent that is not JSON. */
  sentText(text: string): void {
    this.flush();
    this.steps.push({ sendText: generalize(text, this.ctx) });
  }

  /** A JSON object frame the server sent on the connection (but answers to requests sent before the exchange). */
  received(frame: Frame): void {
    if (frame.type === 'event') {
      // `dropped` counts what a slow reader lost (H17): timing, not something a replay can expect.
      const { dropped: _dropped, data, ...rest } = frame;
      this.group.push({
        ...rest,
        data: unorderLists(generalize(data, this.ctx)),
        requestId: { $absent: true },
        topic: { $absent: true },
      });
      return;
    }
    const { topic, requestId } = frame;
    if (topic === SUBSCRIBE_TOPIC && 'result' in frame) {
      const subscribed = (frame.result as { subscribed?: unknown } | null)?.subscribed;
      if (Array.isArray(subscribed)) for (const e of subscribed) if (typeof e === 'string') this.events.add(e);
    }
    // An answer: its error's code (messages are the server's own words), or its result; anything else as it came.
    if ('error' in frame) this.group.push({ topic, requestId, error: { code: (frame.error as Frame | null)?.code } });
    else if ('result' in frame)
      this.group.push({ topic, requestId, result: unorderLists(generalize(frame.result, this.ctx)) });
    else this.group.push(generalize(frame, this.ctx));
  }

  /** The steps so far, the last frames received included. */
  finish(): unknown[] {
    this.flush();
    return this.steps;
  }

  private flush(): void {
    if (this.group.length === 1) this.steps.push({ expect: this.group[0] });
    else if (this.group.length > 1) this.steps.push({ expectUnordered: this.group });
    this.group = [];
  }
}
