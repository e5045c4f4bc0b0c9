// runtime/event-queue.ts's frame encoding: byte for byte what JSON.stringify of the frame object gives,
// and shareEncoding's one encoding per fan-out (scoped: an object changed between emits is re-encoded).
import { describe, expect, it } from 'vitest';
import { EventQueue, HIGH_WATER_BYTES, MAX_QUEUED_EVENTS, shareEncoding } from '../../runtime/event-queue';
import { until } from '../support/wait';

const FILES = '/app/vscode/files/changed';
const rules = EventQueue.rules({ [FILES]: 'changes[].filePath' });

function queue(held = () => 0): { q: EventQueue; sent: string[] } {
  const sent: string[] = [];
  return { q: new EventQueue({ send: (f) => sent.push(f), bufferedAmount: held }, rules), sent };
}

/** Data whose `changes` getter counts how often it is serialized. */
function counted(path: string): { data: Record<string, unknown>; reads: () => number } {
  let reads = 0;
  const data = {};
  Object.defineProperty(data, 'changes', {
    enumerable: true,
    get: () => {
      reads++;
      return [{ filePath: path, change: 'changed' }];
    },
  });
  return { data: data as Record<string, unknown>, reads: () => reads };
}

describe('event frames', () => {
  it('are the bytes JSON.stringify gives for the frame object, strings escaped', () => {
    const { q, sent } = queue();
    const data = { changes: [{ filePath: '/w/"quoted"\n\u2028é.ts', change: 'created' }] };
    q.push(FILES, data);
    expect(sent).toEqual([JSON.stringify({ type: 'event', event: FILES, data })]);
  });

  // clause H17: the queue's bound, and the dropped count on the next frame delivered.
  it('carry the dropped count after the data, as before', async () => {
    let held = HIGH_WATER_BYTES + 1;
    const { q, sent } = queue(() => held);
    // Full socket: one entry per file queued up to the bound, the rest dropped; sent once there is room.
    for (let i = 0; i < MAX_QUEUED_EVENTS + 10; i++)
      q.push(FILES, { changes: [{ filePath: `/w/${i}.ts`, change: 'created' }] });
    held = 0;
    await until('the queue to drain', () => sent.length > 0);
    expect(sent).toHaveLength(1);
    const parsed = JSON.parse(sent[0]!) as { data: { changes: unknown[] }; dropped: number };
    expect(parsed.dropped).toBe(10);
    expect(parsed.data.changes).toHaveLength(MAX_QUEUED_EVENTS);
    expect(sent[0]).toBe(JSON.stringify({ type: 'event', event: FILES, data: parsed.data, dropped: 10 }));
  });
});

describe('shareEncoding', () => {
  it('encodes the data once for every subscriber of one fan-out, same bytes for each', () => {
    const peers = Array.from({ length: 5 }, () => queue());
    const { data, reads } = counted('/w/a.ts');
    shareEncoding(FILES, data, () => {
      for (const p of peers) p.q.push(FILES, data);
    });
    expect(reads()).toBe(1);
    const want = JSON.stringify({
      type: 'event',
      event: FILES,
      data: { changes: [{ filePath: '/w/a.ts', change: 'changed' }] },
    });
    for (const p of peers) expect(p.sent).toEqual([want]);
  });

  it('outside a fan-out, and for an object changed between two fan-outs, encodes afresh', () => {
    const { q, sent } = queue();
    const data = { changes: [{ filePath: '/w/a.ts', change: 'changed' }] };
    shareEncoding(FILES, data, () => q.push(FILES, data));
    data.changes[0]!.change = 'deleted';
    shareEncoding(FILES, data, () => q.push(FILES, data));
    data.changes[0]!.change = 'created';
    q.push(FILES, data);
    expect(sent.map((f) => (JSON.parse(f) as { data: typeof data }).data.changes[0]!.change)).toEqual([
      'changed',
      'deleted',
      'created',
    ]);
  });

  it('does not lend one event’s frame to another event with the same data', () => {
    const files = queue();
    const editor = queue();
    const data = { changes: [] };
    shareEncoding(FILES, data, () => {
      files.q.push(FILES, data);
      editor.q.push('/app/vscode/editor/changed', data);
    });
    expect(JSON.parse(files.sent[0]!)).toMatchObject({ event: FILES });
    expect(JSON.parse(editor.sent[0]!)).toMatchObject({ event: '/app/vscode/editor/changed' });
  });
});
