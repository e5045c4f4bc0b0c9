// The `idea` command: argv → a request to the VS Code window serving the current folder → output.
// Exit codes: 0 ok, 1 protocol error (code on stderr), 2 usage, 3 no server. `idea watch` streams
// until Ctrl-C (exit 0). The token is never
// printed: every token in use (given, from $IDEA_TOKEN, or found in the registry) is replaced by ***
// in everything written, errors and results alike (a result could quote .vscode/settings.json).
import { realpathSync } from 'node:fs';
import { formatResult } from '@idea-kit/result-text/format';
import { CHANGED_FILES_PARAM, ChangedFilesError, withChangedFiles } from '../../runtime/changed-files';
import { type Endpoint, NoServerError, NotLoopbackError, pickServer, resolveEndpoint } from '../../runtime/locate';
import { listRegisteredServers, type RegistryEntry, registryDir } from '../../runtime/registry';
import { version as PACKAGE_VERSION } from '../package.json';
import { type GlobalOptions, type Invocation, parseArgs, UsageError } from './args';
import { type CommandSpec, commandsFromSpec } from './commands';
import { chooseAction, FixError, type FixInvocation, type ListedAction, withLineEnd } from './fix';
import { commandHelp, commandLine, emptyResultHint, fixHelp, mainHelp } from './help';
import { checkParamsFile, ParamsFileError, readParamsFile } from './params-file';
import {
  connect,
  type EventName,
  FRAMES,
  type IdeaClient,
  IdeaClosedError,
  IdeaProtocolError,
  IdeaTimeoutError,
} from './protocol';
import type { SpecBundle } from './spec';
import { checkNamePaths, NoNamePathsError, needsSymbolFile, SymbolFileError, withSymbolFile } from './symbol-file';
import { checkParams } from './validate';
import { NotAdvertisedError, watch } from './watch';

export const EXIT = { ok: 0, protocol: 1, usage: 2, noServer: 3 } as const;
const DEFAULT_TIMEOUT_MS = 60_000;

export interface Io {
  env: NodeJS.ProcessEnv;
  /** The current directory: the server serving it is the one used. */
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  stdoutIsTTY: boolean;
  /** Standard input, read whole: `idea apply -`. */
  stdin?: () => Promise<string>;
  /** Starts listening for the person asking to stop (Ctrl-C); resolves then. Ends `idea watch`. Default: never. */
  interrupted?: () => Promise<void>;
}

class NoServer extends Error {}

/** Io with the tokens in use registered for scrubbing, and what to stop before returning (a headless server). */
interface RunIo extends Io {
  secret(token: string): void;
  atExit(stop: () => Promise<void>): void;
}

/**
 * --headless with no server for the folder: idea-server serves it in-process for this one command
 * (not registered: nobody else should find a server that lives for a request). Loaded only then, so
 * the CLI starts as fast as before; @idea-kit/server is a dependency, not in the bundle.
 */
async function headlessEndpoint(g: GlobalOptions, io: RunIo): Promise<Endpoint> {
  const { serveIfNone } = await import('@idea-kit/server');
  const h = await serveIfNone({
    cwd: realCwd(io.cwd),
    env: io.env,
    ...(g.url !== undefined ? { url: g.url } : {}),
    ...(g.token !== undefined ? { token: g.token } : {}),
    register: false,
    // Its log is for a long-lived server; here only what goes wrong would matter, and that throws.
    log: () => undefined,
  });
  if (h.served) io.atExit(() => h.served!.close());
  return h.endpoint;
}

/** The server and token by the one rule of runtime/locate.ts (resolveEndpoint); the token registered for scrubbing. */
async function endpoint(g: GlobalOptions, io: RunIo): Promise<Endpoint> {
  try {
    const ep = g.headless
      ? await headlessEndpoint(g, io)
      : await resolveEndpoint({ url: g.url, token: g.token, env: io.env, cwd: io.cwd });
    if (ep.token !== undefined) io.secret(ep.token);
    return ep;
  } catch (e) {
    if (e instanceof NotLoopbackError) throw new UsageError(e.message);
    if (e instanceof NoServerError) throw new NoServer(`idea: ${e.message}`);
    throw e;
  }
}

/** A connection to the server serving the folder (NoServer when there is none or it cannot be reached). */
async function open(g: GlobalOptions, io: RunIo): Promise<IdeaClient> {
  const ep = await endpoint(g, io);
  const timeoutMs = g.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    return await connect({ url: ep.url, ...(ep.token !== undefined ? { token: ep.token } : {}), timeoutMs });
  } catch (e) {
    if (e instanceof IdeaProtocolError) throw e; // UNAUTHORIZED and the like: the server answered
    throw new NoServer(`idea: cannot reach the IDEA server at ${ep.url}: ${(e as Error).message}`);
  }
}

function colorOf(g: GlobalOptions, io: Io): boolean {
  if (g.color !== undefined) return g.color;
  if (io.env.NO_COLOR) return false;
  if (io.env.FORCE_COLOR && io.env.FORCE_COLOR !== '0') return true;
  return io.stdoutIsTTY;
}

function realCwd(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}

/** A registry entry as shown: everything but the token. */
function shown(e: RegistryEntry): Omit<RegistryEntry, 'token'> {
  const { token: _token, ...rest } = e;
  return rest;
}

async function servers(g: GlobalOptions, io: RunIo): Promise<number> {
  const dir = registryDir(io.env);
  const listing = await listRegisteredServers({ dir });
  const serving = pickServer(realCwd(io.cwd), listing.servers)?.entry;
  if (g.json) {
    io.stdout(
      `${JSON.stringify(
        listing.servers.map((e) => ({ ...shown(e), servesCwd: e === serving })),
        null,
        2,
      )}\n`,
    );
  } else {
    for (const e of listing.servers) {
      io.stdout(
        `${e === serving ? '*' : ' '} ${e.url}  pid ${e.pid}  protocol ${e.protocolVersion}${e.ide ? `  ${e.ide}` : ''}  ${e.workspaces.join(', ') || '(no folder open)'}\n`,
      );
    }
  }
  for (const s of listing.stale) io.stderr(`idea: removed a stale entry for ${s.entry.url}: ${s.reason}\n`);
  for (const i of listing.ignored) io.stderr(`idea: ignored ${i.file}: ${i.reason}\n`);
  if (listing.servers.length === 0) {
    io.stderr(`idea: no running IDEA server is registered in ${dir}\n`);
    return EXIT.noServer;
  }
  return EXIT.ok;
}

async function execute(inv: Invocation, cmds: readonly CommandSpec[], spec: SpecBundle, io: RunIo): Promise<number> {
  switch (inv.kind) {
    case 'help':
      io.stdout(
        `${inv.topic === 'fix' ? fixHelp() : inv.command ? commandHelp(inv.command) : mainHelp(cmds, spec.version, spec.events)}\n`,
      );
      return EXIT.ok;
    case 'version':
      io.stdout(`idea ${PACKAGE_VERSION} (IDEA protocol ${spec.version})\n`);
      return EXIT.ok;
    case 'servers':
      return servers(inv.globals, io);
    case 'watch': {
      const client = await open(inv.globals, io);
      try {
        const how = await watch(client, inv.event as EventName, {
          json: inv.globals.json,
          color: colorOf(inv.globals, io),
          cwd: realCwd(io.cwd),
          out: io.stdout,
          note: io.stderr,
          interrupted: io.interrupted?.() ?? new Promise<never>(() => undefined),
        });
        if (how === 'closed') throw new IdeaClosedError('while watching');
        return EXIT.ok;
      } finally {
        await client.close();
      }
    }
    case 'fix':
      return fix(inv.fix, inv.globals, cmds, io);
    case 'topic':
    case 'call': {
      const topic = inv.kind === 'topic' ? inv.command.topic : inv.topic;
      // `idea call` sends its params as given; a command's NAME_PATH alone gets its file first.
      const cmd = inv.kind === 'topic' ? inv.command : undefined;
      let params = inv.params;
      let result: unknown;
      const clientSide = cmd?.params.some((p) => p.client && params[p.name] !== undefined) === true;
      if (clientSide) {
        const filled = await withChangedFiles(params, realCwd(io.cwd)).catch((e: unknown) => {
          throw e instanceof ChangedFilesError ? new UsageError(`--changed: ${e.message}`, cmd) : e;
        });
        if (!filled) {
          io.stderr('idea: git reports no changed files: nothing to ask\n');
          result = CHANGED_FILES_PARAM.emptyResult;
        } else params = filled.params;
      }
      const file = inv.kind === 'topic' ? inv.paramsFile : undefined;
      if (file) params = { ...(await readParamsFile(file, cmd!, io)), ...params };
      const findFile = needsSymbolFile(cmd, params);
      if (file) checkParamsFile(FRAMES.params.get(topic), params, inv.params, file, cmd!);
      else if (!findFile) checkParams(FRAMES.params.get(topic), params, inv.command);
      if (result === undefined) {
        const timeoutMs = inv.globals.timeoutMs ?? DEFAULT_TIMEOUT_MS;
        const client = await open(inv.globals, io);
        try {
          checkNamePaths(client, cmd, params, spec);
          if (findFile) {
            params = await withSymbolFile(client, cmd!, params, { timeoutMs, cwd: realCwd(io.cwd) });
            checkParams(FRAMES.params.get(topic), params, cmd);
          }
          result = await client.request(topic as never, params as never, { timeoutMs });
        } finally {
          client.close();
        }
      }
      const text = inv.globals.json
        ? JSON.stringify(result, null, 2)
        : formatResult(topic, result, { color: colorOf(inv.globals, io), cwd: realCwd(io.cwd), params });
      if (text !== '') io.stdout(`${text}\n`);
      else if (cmd && !inv.globals.json && !clientSide) {
        const hint = emptyResultHint(cmd, inv.params);
        if (hint) io.stderr(`${hint}\n`);
      }
      if (!inv.globals.json) undoHint(result, cmds, io);
      return EXIT.ok;
    }
  }
}

/** After a write (since 0.1.8), on stderr: how to undo it, by its transactionId. */
function undoHint(result: unknown, cmds: readonly CommandSpec[], io: Io): void {
  const undo = cmds.find((c) => c.action === 'undo' && c.alias);
  const tx = (result as { transactionId?: unknown } | undefined)?.transactionId;
  if (undo && typeof tx === 'string') io.stderr(`idea: undo it with: ${commandLine(undo)} ${tx}\n`);
}

/**
 * `idea fix` (fix.ts): the code actions listed and, when one is chosen, its dry run, or with --yes the
 * action written; both on one connection, where the action's id is good.
 */
async function fix(f: FixInvocation, g: GlobalOptions, cmds: readonly CommandSpec[], io: RunIo): Promise<number> {
  const listParams = f.wholeLine ? await withLineEnd(f.listParams, realCwd(io.cwd)) : f.listParams;
  checkParams(FRAMES.params.get(f.list.topic), listParams, f.list);
  const timeoutMs = g.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const show = (topic: string, result: unknown, params: Record<string, unknown>) => {
    const text = g.json
      ? JSON.stringify(result, null, 2)
      : formatResult(topic, result, { color: colorOf(g, io), cwd: realCwd(io.cwd), params });
    if (text !== '') io.stdout(`${text}\n`);
  };
  const client = await open(g, io);
  try {
    const listed = (await client.request(f.list.topic as never, listParams as never, { timeoutMs })) as {
      actions: ListedAction[];
    };
    if (!f.choice) {
      show(f.list.topic, listed, listParams);
      if (!g.json && listed.actions.length > 0)
        io.stderr('idea: apply one: the same command and its number (or --first), then --yes to write it\n');
      return EXIT.ok;
    }
    const action = chooseAction(listed.actions, f.choice);
    const params = { id: action.id, dryRun: !f.yes, ...f.applyParams };
    checkParams(FRAMES.params.get(f.apply.topic), params, f.apply);
    const result = await client.request(f.apply.topic as never, params as never, { timeoutMs });
    if (!g.json) io.stdout(`${action.title}  (${action.kind || 'no kind'})\n`);
    show(f.apply.topic, result, params);
    if (!g.json && !f.yes) io.stderr('idea: nothing written: add --yes to write it\n');
    if (!g.json) undoHint(result, cmds, io);
    return EXIT.ok;
  } finally {
    client.close();
  }
}

/**
 * An error answer: its code and message, then (0.1.8) the symbols a name path could have meant that the
 * message does not name already, one a line.
 */
function protocolErrorText(e: IdeaProtocolError): string {
  const lines = [`idea: ${e.code}: ${e.message}`];
  for (const c of e.candidates ?? [])
    if (!e.message.includes(c.namePath)) lines.push(`  ${c.kind} ${c.namePath}  (line ${c.line + 1})`);
  return `${lines.join('\n')}\n`;
}

/** Runs the CLI; resolves with the exit code. */
export async function run(argv: readonly string[], spec: SpecBundle, io: Io): Promise<number> {
  const cmds = commandsFromSpec(spec);
  const secrets = new Set<string>();
  const scrub = (text: string) => [...secrets].reduce((t, s) => t.split(s).join('***'), text);
  const err = (text: string) => io.stderr(scrub(text));
  const stops: (() => Promise<void>)[] = [];
  const rio: RunIo = {
    ...io,
    stdout: (t) => io.stdout(scrub(t)),
    stderr: err,
    secret: (t) => void secrets.add(t),
    atExit: (stop) => void stops.push(stop),
  };
  if (io.env.IDEA_TOKEN) secrets.add(io.env.IDEA_TOKEN);
  const tokenArg = argv.findIndex((a) => a === '--token' || a.startsWith('--token='));
  if (tokenArg >= 0) {
    const t = argv[tokenArg]!.startsWith('--token=') ? argv[tokenArg]!.slice(8) : argv[tokenArg + 1];
    if (t) secrets.add(t);
  }
  try {
    const inv = parseArgs(argv, cmds, spec.events);
    try {
      return await execute(inv, cmds, spec, rio);
    } finally {
      await Promise.all(stops.map((stop) => stop().catch(() => undefined)));
    }
  } catch (e) {
    if (e instanceof UsageError) {
      err(
        `idea: ${e.message}\n${e.command ? `(idea ${e.command.name} --help lists its flags)` : '(idea --help lists the commands)'}\n`,
      );
      return EXIT.usage;
    }
    if (e instanceof NoServer) {
      err(`${e.message}\n`);
      return EXIT.noServer;
    }
    if (e instanceof IdeaProtocolError) {
      err(protocolErrorText(e));
      return EXIT.protocol;
    }
    if (
      e instanceof NotAdvertisedError ||
      e instanceof SymbolFileError ||
      e instanceof NoNamePathsError ||
      e instanceof FixError ||
      e instanceof ParamsFileError
    ) {
      err(`idea: ${e.message}\n`);
      return EXIT.protocol;
    }
    if (e instanceof IdeaTimeoutError) {
      err(`idea: TIMEOUT: ${e.message}\n`);
      return EXIT.protocol;
    }
    if (e instanceof IdeaClosedError) {
      err(`idea: the server closed the connection: ${e.message}\n`);
      return EXIT.noServer;
    }
    err(`idea: ${(e as Error).stack ?? String(e)}\n`);
    return EXIT.protocol;
  }
}
