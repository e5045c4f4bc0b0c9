// NAME_PATH without its file (`idea callers Hono/route`, `idea def Hono/route`): the CLI asks the
// server which symbol of the workspace the name path names (nav/findSymbol over the whole workspace)
// and sends the topic that symbol's file and own name path. One symbol or an error listing them: never
// a guess, as for a name path in a file (clause T44).
import { formatResult } from '@idea-kit/result-text/format';
import { compareVersions, isVersion } from '@idea-kit/spec-lib/version';
import { locatorForms } from './args';
import type { CommandSpec } from './commands';
import { commandLine } from './help';
import type { IdeaClient } from './protocol';
import type { SpecBundle } from './spec';

const FIND_SYMBOL = '/app/vscode/nav/findSymbol';
/** As many as an error lists (the protocol's candidates are at most 20 too). */
const LISTED = 20;

/** The name path names no symbol, or several: the message says which and how to pick one. */
export class SymbolFileError extends Error {
  override readonly name = 'SymbolFileError';
}

/** The server takes no name paths (it is older than they are). */
export class NoNamePathsError extends Error {
  override readonly name = 'NoNamePathsError';
}

interface Found {
  symbols: { filePath: string; namePath: string }[];
  totalCount: number;
  form: string;
  files?: { filePath: string; count: number }[];
}

/** Whether `params` name a symbol by name path with no file: the CLI then finds the file. */
export function needsSymbolFile(cmd: CommandSpec | undefined, params: Record<string, unknown>): boolean {
  const l = cmd?.locator;
  return l !== undefined && params[l.namePath.name] !== undefined && params[l.file.name] === undefined;
}

/**
 * A server older than name paths takes none (it would ignore the field and ask for a line): said before
 * anything is sent, by the version it announced. Name paths came with nav/findSymbol (T43, T44), so
 * that topic's `since` is their first version.
 */
export function checkNamePaths(
  client: IdeaClient,
  cmd: CommandSpec | undefined,
  params: Record<string, unknown>,
  spec: SpecBundle,
): void {
  const l = cmd?.locator;
  const version = String(client.handshake.version);
  const NAME_PATHS_SINCE = spec.topics.find((t) => t.topic === FIND_SYMBOL)?.since;
  if (!l || params[l.namePath.name] === undefined || NAME_PATHS_SINCE === undefined) return;
  if (!isVersion(version) || compareVersions(version, NAME_PATHS_SINCE) >= 0) return;
  throw new NoNamePathsError(
    `the IDEA server (protocol ${version}) takes no name paths (protocol ${NAME_PATHS_SINCE} does): give ${locatorForms(cmd!).slice(0, 2).join(' or ')}`,
  );
}

/** `params` with the file of the one symbol their name path names in the workspace, and its own name path. */
export async function withSymbolFile(
  client: IdeaClient,
  cmd: CommandSpec,
  params: Record<string, unknown>,
  opts: { timeoutMs: number; cwd: string },
): Promise<Record<string, unknown>> {
  const l = cmd.locator!;
  const namePath = String(params[l.namePath.name]);
  if (!client.supports(FIND_SYMBOL as never))
    throw new SymbolFileError(
      `a name path alone needs the server to find symbols (${FIND_SYMBOL}), which it does not serve: give the file too (${commandLine(cmd)} ${locatorForms(cmd)[2]})`,
    );
  const found = (await client.request(FIND_SYMBOL as never, { namePath, maxResults: LISTED } as never, {
    timeoutMs: opts.timeoutMs,
  })) as Found;
  const one = found.totalCount === 1 ? found.symbols[0] : undefined;
  if (one) return { ...params, [l.file.name]: one.filePath, [l.namePath.name]: one.namePath };
  const listing = formatResult(FIND_SYMBOL, found, { color: false, cwd: opts.cwd });
  if (found.totalCount === 0)
    throw new SymbolFileError(
      `no symbol of the workspace matches the name path '${namePath}'${listing ? `\n${indent(listing)}` : ''}`,
    );
  throw new SymbolFileError(
    `the name path '${namePath}' names ${found.totalCount} symbols of the workspace; give the file too (${commandLine(cmd)} ${locatorForms(cmd)[2]}):\n${indent(listing)}`,
  );
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
