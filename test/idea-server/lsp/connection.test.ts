// The connection idea-server speaks to a language server's stdio with (idea-server/src/lsp/connection.ts):
// every message leaves in one write the moment it is sent, framed with its byte length, in order; a
// write error fails that message; incoming messages are decoded however the bytes are split, in order,
// and a response settles as soon as it is read, without waiting for the event loop's check phase
// (setImmediate), while the server's notifications still arrive in order.
import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message, ProtocolConnection } from 'vscode-languageserver-protocol/node';
import {
  frameMessage,
  ImmediateMessageReader,
  lspConnection,
  OneWriteMessageWriter,
} from '../../../idea-server/src/lsp/connection';
import { nextTicks, until } from '../../support/wait';

/** Any JSON-RPC message (the library's Message type names only `jsonrpc`). */
const msg = (m: Record<string, unknown>) => ({ jsonrpc: '2.0', ...m }) as Message;

/** A stdin stand-in that keeps every write call's bytes; `fail` makes the next write call back with an error. */
class Recorder extends Writable {
  readonly writes: Buffer[] = [];
  fail: Error | undefined;
  override _write(chunk: Buffer, _enc: BufferEncoding, done: (e?: Error | null) => void): void {
    this.writes.push(chunk);
    const e = this.fail;
    this.fail = undefined;
    done(e ?? null);
  }
}

/** Frames parsed back out of the bytes written: [header's length, body]. */
function unframe(bytes: Buffer): [number, string][] {
  const out: [number, string][] = [];
  let rest = bytes;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    const length = Number(/^Content-Length: (\d+)$/.exec(rest.subarray(0, end).toString('ascii'))![1]);
    out.push([length, rest.subarray(end + 4, end + 4 + length).toString('utf8')]);
    rest = rest.subarray(end + 4 + length);
  }
  return out;
}

describe('OneWriteMessageWriter', () => {
  it('writes each message as one frame, in one write call, before write() returns', () => {
    const stdin = new Recorder();
    const writer = new OneWriteMessageWriter(stdin);
    const messages = [
      msg({ id: 1, method: 'textDocument/definition', params: { text: 'é → 𝒳' } }),
      msg({ method: 'initialized', params: {} }),
    ];
    for (const m of messages) void writer.write(m);
    expect(stdin.writes).toHaveLength(2);
    for (const [i, m] of messages.entries()) {
      const frames = unframe(stdin.writes[i]!);
      expect(frames).toHaveLength(1);
      const [length, body] = frames[0]!;
      expect(JSON.parse(body!)).toEqual(m);
      expect(length).toBe(Buffer.byteLength(JSON.stringify(m))); // bytes, not characters
    }
    expect(frameMessage(messages[1]!).toString()).toBe(
      'Content-Length: 52\r\n\r\n{"jsonrpc":"2.0","method":"initialized","params":{}}',
    );
  });

  it('a failed write rejects that message and reports it with the message; one that cannot be encoded is not written', async () => {
    const stdin = new Recorder();
    const writer = new OneWriteMessageWriter(stdin);
    const errors: unknown[] = [];
    writer.onError(([e, m, count]) => errors.push([(e as Error).message, m, count]));
    const circular: Record<string, unknown> = { method: 'c' };
    circular.params = circular;
    await expect(writer.write(msg(circular))).rejects.toThrow(/circular/i);
    expect(stdin.writes).toHaveLength(0);
    stdin.fail = new Error('EPIPE');
    const first = msg({ method: 'a' });
    await expect(writer.write(first)).rejects.toThrow('EPIPE');
    expect(errors).toContainEqual(['EPIPE', first, 1]);
  });
});

describe('ImmediateMessageReader', () => {
  /** The messages read from `parts` (each one 'data' chunk), in order, and the errors reported. */
  function read(parts: (string | Buffer)[]) {
    const stream = new PassThrough();
    const reader = new ImmediateMessageReader(stream);
    const got: unknown[] = [];
    const errors: string[] = [];
    reader.onError((e) => errors.push(e.message));
    reader.listen((m) => got.push(m));
    for (const p of parts) stream.emit('data', Buffer.isBuffer(p) ? p : Buffer.from(p));
    return { got, errors };
  }

  it('decodes messages however the bytes are split: several per chunk, one over many, mid-character', () => {
    const a = msg({ id: 1, result: { text: 'é → 𝒳' } });
    const b = msg({ method: 'note', params: { n: 1 } });
    const both = Buffer.concat([frameMessage(a), frameMessage(b)]);
    expect(read([both]).got).toEqual([a, b]);
    // Byte by byte: header and body split everywhere, a UTF-8 sequence too.
    expect(read([...both].map((x) => Buffer.from([x]))).got).toEqual([a, b]);
    // Other headers are allowed, in any case.
    const body = JSON.stringify(b);
    expect(
      read([`content-type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH: ${body.length}\r\n\r\n${body}`])
        .got,
    ).toEqual([b]);
  });

  it('reports a body that is not JSON and reads on; drops input with no valid header', () => {
    const b = msg({ method: 'note' });
    const r = read(['Content-Length: 3\r\n\r\n{x}', frameMessage(b)]);
    expect(r.got).toEqual([b]);
    expect(r.errors).toEqual([expect.stringMatching(/not JSON/)]);
    const bad = read(['Content-Type: x\r\n\r\n{}', frameMessage(b)]);
    expect(bad.errors).toEqual([expect.stringMatching(/without a valid Content-Length/)]);
    expect(bad.got).toEqual([b]);
    const endless = read(['X'.repeat(9000)]);
    expect(endless.errors).toEqual([expect.stringMatching(/header section without its end/)]);
  });
});

describe('lspConnection', () => {
  let conn: ProtocolConnection | undefined;
  afterEach(() => conn?.dispose());

  it('a request leaves in one write; its response settles as it is read, before any setImmediate', async () => {
    const stdout = new PassThrough();
    const stdin = new Recorder();
    conn = lspConnection(stdout, stdin);
    const notes: string[] = [];
    conn.onNotification('note', (p: { n: string }) => {
      notes.push(p.n);
    });
    conn.listen();
    let answer: unknown;
    void conn.sendRequest('textDocument/definition', { x: 1 }).then((a) => {
      answer = a;
    });
    expect(stdin.writes).toHaveLength(1);
    const { id } = JSON.parse(unframe(stdin.writes[0]!)[0]![1]) as { id: number };
    stdout.write(frameMessage(msg({ id, result: [{ uri: 'file:///a' }] })));
    await nextTicks(10);
    expect(answer).toEqual([{ uri: 'file:///a' }]);
    // Notifications still go through the queue, one after the other, in the order they came.
    for (const n of ['1', '2', '3']) stdout.write(frameMessage(msg({ method: 'note', params: { n } })));
    await until('the three notifications', () => notes.length === 3, { detail: () => notes });
    expect(notes).toEqual(['1', '2', '3']);
  });
});
