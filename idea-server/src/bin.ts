#!/usr/bin/env -S npx tsx
// The `idea-server` command: parse, serve until SIGINT/SIGTERM, then unregister and shut the language
// servers down. Exit codes: 0 stopped by a signal (or --help/--version), 1 could not serve, 2 usage.
import { version as PACKAGE_VERSION } from '../package.json';
import { parseServerArgs, USAGE, UsageError } from './args';
import { type ServedWorkspace, serveWorkspace, WorkspaceError } from './serve';

const log = (m: string) => void process.stderr.write(`idea-server: ${m}\n`);

async function main(argv: string[]): Promise<number | undefined> {
  let args;
  try {
    args = parseServerArgs(argv, process.env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`idea-server: ${e.message}\n${USAGE}\n`);
    return 2;
  }
  if (args.info === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.info === 'version') {
    process.stdout.write(`idea-server ${PACKAGE_VERSION}\n`);
    return 0;
  }
  let served: ServedWorkspace;
  try {
    served = await serveWorkspace({
      workspace: args.workspace,
      ...(args.port !== undefined ? { port: args.port } : {}),
      lsp: args.lsp,
      ...(args.token !== undefined ? { token: args.token } : {}),
      auth: args.auth,
      ...(args.historyDir !== undefined ? { historyDir: args.historyDir } : {}),
      ...(args.register ? (args.registry !== undefined ? { registry: args.registry } : {}) : { registry: false }),
      writeSettings: args.writeSettings,
      trustWorkspace: args.trustWorkspace,
      log,
    });
  } catch (e) {
    if (e instanceof WorkspaceError) {
      process.stderr.write(`idea-server: ${e.message}\n${USAGE}\n`);
      return 2;
    }
    const err = e as NodeJS.ErrnoException;
    log(
      err.code === 'EADDRINUSE'
        ? `ports from ${args.port ?? 7200} on are all in use; pick another with --port (0: any free port)`
        : `could not serve: ${err.message}`,
    );
    return 1;
  }
  log(`ready in ${Math.round(performance.now())} ms`);
  // Whatever ends the process, the registry entry goes with it (readers would clean it, later).
  process.on('exit', () => served.unregister());
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    served.close().then(
      () => process.exit(0),
      (e: Error) => {
        log(`stopping failed: ${e.message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  return undefined; // serving: the process lives on
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exit(code);
  },
  (e: Error) => {
    log(e.stack ?? e.message);
    process.exit(1);
  },
);
