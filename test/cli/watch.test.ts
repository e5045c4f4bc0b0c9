// `idea watch`'s streaming (cli/src/watch.ts) over a stand-in client: what the process tests cannot
// force (a server reporting dropped events), and that sessions-served topics are no commands.
import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../../cli/src/args';
import type { IdeaClient } from '../../cli/src/protocol';
import { watch } from '../../cli/src/watch';
import { until } from '../support/wait';
import { CMDS, SPEC } from './spec';

type Handler = (data: unknown, dropped: number) => void;

function standIn(events: string[]) {
  const handlers = new Map<string, Handler>();
  const calls: string[] = [];
  const client = {
    handshake: { version: '0.1.7', events },
    on: (e: string, h: Handler) => (handlers.set(e, h), () => handlers.delete(e)),
    subscribe: async (evs: string[]) => (calls.push(`subscribe ${evs}`), async () => void calls.push('unsubscribe')),
    closed: new Promise<void>(() => undefined),
  } as unknown as IdeaClient;
  return { client, handlers, calls };
}

describe('idea watch', () => {
  it('--json adds dropped to the line of the event that reports it; text says it on stderr', async () => {
    const files = '/app/vscode/files/changed';
    for (const json of [true, false]) {
      const s = standIn([files]);
      let stop!: () => void;
      const out: string[] = [];
      const note: string[] = [];
      const done = watch(s.client, files, {
        json,
        color: false,
        cwd: '/w',
        out: (t) => void out.push(t),
        note: (t) => void note.push(t),
        interrupted: new Promise((r) => (stop = r)),
      });
      await until('the watch to subscribe', () => s.handlers.has(files));
      s.handlers.get(files)!({ changes: [{ filePath: '/w/a.ts', change: 'changed' }] }, 3);
      s.handlers.get(files)!({ changes: [{ filePath: '/w/b.ts', change: 'created' }] }, 0);
      stop();
      expect(await done).toBe('interrupted');
      expect(s.calls).toEqual([`subscribe ${files}`, 'unsubscribe']);
      expect(s.handlers.size).toBe(0);
      if (json)
        expect(out).toEqual([
          '{"changes":[{"filePath":"/w/a.ts","change":"changed"}],"dropped":3}\n',
          '{"changes":[{"filePath":"/w/b.ts","change":"created"}]}\n',
        ]);
      else {
        expect(out).toEqual(['changed a.ts\n', 'created b.ts\n']);
        expect(note).toContain('idea: the server dropped 3 events before this one (read too slowly)\n');
      }
    }
  });

  it('the topics the session serves are no commands; watch names come from the events', () => {
    expect(CMDS.map((c) => c.topic)).not.toContain('/app/vscode/events/subscribe');
    expect(CMDS.map((c) => c.topic)).not.toContain('/app/vscode/events/unsubscribe');
    expect(() => parseArgs(['events', 'subscribe'], CMDS, SPEC.events)).toThrow(UsageError);
    expect(parseArgs(['watch', 'Files', '--json'], CMDS, SPEC.events)).toMatchObject({
      kind: 'watch',
      event: '/app/vscode/files/changed',
      globals: { json: true },
    });
    expect(() => parseArgs(['watch', 'files', '--max-count', '3'], CMDS, SPEC.events)).toThrow(/takes no --max-count/);
    expect(() => parseArgs(['watch'], CMDS, SPEC.events)).toThrow(/usage: idea watch diagnostics\|files\|editor/);
  });
});
