// The server half of idea-server-nav.mts (not a bench entry): serves a workspace with idea-server's
// serveWorkspace (from the sources), with timing marks patched into the stages one request passes,
// and hands the marks of every request frame to the parent over IPC when asked ("dump").
//   argv: <workspace> <home>
import type { ChildProcess } from 'node:child_process';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { Documents } from '../../idea-server/src/lsp/documents';
import { ServerProcess } from '../../idea-server/src/lsp/server-process';
import { serveWorkspace } from '../../idea-server/src/serve';
import { ServerSession } from '../../runtime/server-session';

type Marks = [string, number][];
const records: Marks[] = [];
let current: Marks | undefined;
const mark = (name: string) => current?.push([name, performance.now()]);
(globalThis as { __mark?: unknown }).__mark = mark;

// Wraps a method so that it marks `<name>` when called and `<name>.end` when its promise settles.
function timeMethod(proto: object, method: string, name: string): void {
  const p = proto as Record<string, (...a: unknown[]) => unknown>;
  const original = p[method]!;
  p[method] = function (this: unknown, ...args: unknown[]) {
    mark(name);
    const r = original.apply(this, args);
    if (r instanceof Promise)
      r.then(
        () => mark(`${name}.end`),
        () => mark(`${name}.end`),
      );
    return r;
  };
}

const session = ServerSession.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
const onFrame = session.onFrame!;
session.onFrame = function (this: { options: { send(f: string): void }; state: string }, text: unknown) {
  if (this.state === 'open') {
    current = [['frame', performance.now()]];
    records.push(current);
  }
  if (!(this.options as { timed?: boolean }).timed) {
    const send = this.options.send.bind(this.options);
    Object.assign(this.options, {
      timed: true,
      send: (f: string) => {
        mark('send');
        send(f);
        mark('sent');
      },
    });
  }
  return onFrame.call(this, text);
};
timeMethod(ServerSession.prototype, 'run', 'run');
timeMethod(Documents.prototype, 'sync', 'sync');
timeMethod(ServerProcess.prototype, 'request', 'lsp');
// The language server's process as the nav requests reach it, for the in-process side ("lsp-only").
let tsls: { server: ServerProcess; params: unknown } | undefined;
// Its stdin writes ("lsp.write", one per write call) and its stdout's chunks ("lsp.data") split the LSP
// stage into our sending, the language server's time, and our receiving.
const watched = new WeakSet<object>();
const request = ServerProcess.prototype.request;
ServerProcess.prototype.request = function (this: ServerProcess, ...args: Parameters<typeof request>) {
  if (args[0] === 'textDocument/definition') tsls = { server: this, params: args[1] };
  const child = (this as unknown as { child: ChildProcess }).child;
  if (!watched.has(child)) {
    watched.add(child);
    const stdin = child.stdin as unknown as { write: (...a: unknown[]) => boolean };
    const write = stdin.write;
    stdin.write = function (this: unknown, ...a: unknown[]) {
      mark('lsp.write.call');
      const r = write.apply(this, a);
      mark('lsp.write');
      return r;
    };
    child.stdout!.prependListener('data', () => mark('lsp.data'));
  }
  return request.apply(this, args) as never;
};
// File-system calls of the request (the line check's read, the documents' stats).
const fsp = createRequire(import.meta.url)('node:fs/promises') as Record<string, (...a: unknown[]) => Promise<unknown>>;
for (const [fn, name] of [
  ['readFile', 'readFile'],
  ['stat', 'stat'],
] as const) {
  const original = fsp[fn]!;
  fsp[fn] = (...args: unknown[]) => {
    mark(name);
    const r = original(...args);
    r.then(
      () => mark(`${name}.end`),
      () => mark(`${name}.end`),
    );
    return r;
  };
}
syncBuiltinESMExports();

const [workspace, home] = process.argv.slice(2) as [string, string];
const served = await serveWorkspace({
  workspace,
  port: 0,
  token: 'profile-token-0123456789abcdef',
  registry: false,
  historyDir: join(home, 'h'),
  home,
  env: { PATH: process.env.PATH },
  log: () => {},
});
process.on('message', async (m: unknown) => {
  if (typeof m === 'object' && m !== null && 'lspOnly' in m) {
    // The same textDocument/definition sent from inside idea-server straight to its language server.
    const times: number[] = [];
    const marks: Marks[] = [];
    for (let i = 0; i < (m as { lspOnly: number }).lspOnly; i++) {
      current = [];
      marks.push(current);
      const t0 = performance.now();
      await tsls!.server.request('textDocument/definition', tsls!.params, 'definition', { timeoutMs: 10_000 });
      times.push(performance.now() - t0);
    }
    current = undefined;
    process.send!({ times, records: marks });
  }
  if (m === 'cpu') process.send!({ cpu: process.cpuUsage() });
  if (m === 'dump' || m === 'reset') process.send!({ records: m === 'dump' ? records : [] });
  if (m === 'reset') records.length = 0;
  if (m === 'stop') void served.close().then(() => process.exit(0));
});
process.send!({ url: served.url, token: served.token });
