// The JSON-RPC connection to a language server's stdio: vscode-jsonrpc's connection over our own
// reader and writer, which hand each message on at once. vscode-jsonrpc's own pair costs a warm
// request ~0.3 ms and an extra wake-up of the server (bench/FINDINGS.md, issue 19, third round):
// - its writer waits a setImmediate (its write semaphore) before encoding, then writes the header and
//   the body as two writes, the body after the header's callback, so the server, woken by the header
//   alone, sleeps again until the body comes. Ours frames each message (Content-Length header, blank
//   line, JSON body) into one buffer and writes it at once: synchronous and in call order, so
//   messages stay ordered without a semaphore;
// - its reader decodes each message behind a setImmediate (its read semaphore), and its connection
//   queues each response behind another unless given a parallelism bound. Ours decodes in the 'data'
//   callback, in order, and the bound (never reached) lets responses settle as soon as they are read;
//   the server's own requests and notifications stay queued, in order.
import type { Readable, Writable } from 'node:stream';
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  createProtocolConnection,
  type DataCallback,
  Disposable,
  type Message,
  type MessageReader,
  type MessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';

/** vscode-jsonrpc's bound on server-to-client messages handled at once: in effect none. */
const UNBOUNDED_PARALLELISM = 2 ** 30;
/** A header section longer than this without its blank line is not LSP: reported, and the input dropped. */
const MAX_HEADER_BYTES = 8 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n');

/** One message as it goes on the wire: header and body in one buffer. */
export function frameMessage(msg: Message): Buffer {
  const body = JSON.stringify(msg);
  const length = Buffer.byteLength(body, 'utf8');
  const header = `Content-Length: ${length}\r\n\r\n`;
  const out = Buffer.allocUnsafe(header.length + length);
  out.write(header, 0, 'ascii');
  out.write(body, header.length, 'utf8');
  return out;
}

export class OneWriteMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private errorCount = 0;

  constructor(private readonly stream: Writable) {
    super();
    stream.on('error', (e: Error) => this.fireError(e));
    stream.on('close', () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    let frame: Buffer;
    try {
      frame = frameMessage(msg);
    } catch (e) {
      // Not serialisable (a cycle, a BigInt): this message fails, the connection goes on.
      this.fireError(e, msg);
      return Promise.reject(e);
    }
    return new Promise<void>((resolve, reject) => {
      this.stream.write(frame, (error) => {
        if (!error) return resolve();
        this.errorCount++;
        this.fireError(error, msg, this.errorCount);
        reject(error);
      });
    });
  }

  end(): void {
    this.stream.end();
  }
}

/**
 * Reads LSP messages from a stream and hands each to the connection in the 'data' callback that
 * completes it, in order. Chunks of a long body are joined once, when the body is complete.
 */
export class ImmediateMessageReader extends AbstractMessageReader implements MessageReader {
  private chunks: Buffer[] = [];
  private size = 0;
  /** The body length of the message being read, once its header is read; -1 while reading a header. */
  private bodyLength = -1;

  constructor(private readonly stream: Readable) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const onData = (chunk: Buffer) => this.onData(chunk, callback);
    const onError = (e: Error) => this.fireError(e);
    const onClose = () => this.fireClose();
    this.stream.on('data', onData);
    this.stream.on('error', onError);
    this.stream.on('close', onClose);
    return Disposable.create(() => {
      this.stream.off('data', onData);
      this.stream.off('error', onError);
      this.stream.off('close', onClose);
    });
  }

  private onData(chunk: Buffer, callback: DataCallback): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    for (;;) {
      if (this.bodyLength < 0 && !this.readHeader()) return;
      if (this.size < this.bodyLength) return;
      const all = this.joined();
      const body = all.subarray(0, this.bodyLength);
      this.keep(all.subarray(this.bodyLength));
      this.bodyLength = -1;
      let message: Message;
      try {
        message = JSON.parse(body.toString('utf8')) as Message;
      } catch (e) {
        this.fireError(new Error(`the language server sent a message that is not JSON: ${(e as Error).message}`));
        continue;
      }
      try {
        callback(message);
      } catch (e) {
        this.fireError(e);
      }
    }
  }

  /** Reads the header section when it is complete (sets bodyLength); false while it is not. */
  private readHeader(): boolean {
    const all = this.joined();
    const end = all.indexOf(HEADER_END);
    if (end < 0) {
      if (all.length > MAX_HEADER_BYTES) this.drop('a header section without its end');
      return false;
    }
    const length = /^content-length: *(\d+) *\r?$/im.exec(all.subarray(0, end).toString('ascii'))?.[1];
    if (length === undefined || !Number.isSafeInteger(Number(length))) {
      this.drop('a header without a valid Content-Length');
      return false;
    }
    this.bodyLength = Number(length);
    this.keep(all.subarray(end + HEADER_END.length));
    return true;
  }

  private joined(): Buffer {
    if (this.chunks.length !== 1) this.chunks = [Buffer.concat(this.chunks, this.size)];
    return this.chunks[0]!;
  }

  private keep(rest: Buffer): void {
    this.chunks = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
  }

  private drop(what: string): void {
    this.fireError(new Error(`the language server sent ${what}; its output so far is dropped`));
    this.keep(Buffer.alloc(0));
    this.bodyLength = -1;
  }
}

/** The connection over a server's stdout (`input`) and stdin (`output`); not listening yet. */
export function lspConnection(input: Readable, output: Writable): ProtocolConnection {
  return createProtocolConnection(new ImmediateMessageReader(input), new OneWriteMessageWriter(output), undefined, {
    maxParallelism: UNBOUNDED_PARALLELISM,
  });
}
