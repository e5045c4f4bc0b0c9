// LanguageFeatures.callHierarchy over VS Code's call hierarchy providers (vscode.prepareCallHierarchy,
// vscode.provideIncomingCalls / vscode.provideOutgoingCalls); only file:// items.
//
// VS Code keeps the items of the last 10 hierarchies prepared through these commands, window-wide, and
// asking the calls of an item of an older one answers nothing, silently (the workbench's
// contrib/callHierarchy/common/callHierarchy.ts, `_models`). Concurrent requests would make a deep
// walk's later questions answer nothing: an item whose hierarchy may have been dropped is prepared
// again (a fresh hierarchy for the same function) before its calls are asked, and our commands run one
// at a time, so that no prepare of ours slips in between that check and the question.
import * as vscode from 'vscode';
import type { CallHierarchy, CallHierarchyItem, Position, Range, Unavailable } from '../../server-core/host';
import { openDocument } from './documents';
import { askLanguageServer } from './language-answer';
import { LANGUAGE_TIMEOUT_MS } from './language-server';
import { plain } from './plain-range';
import { withTimeout } from './with-timeout';

/** VS Code keeps this many prepared hierarchies; ours count as alive while among the newest KEPT_SAFELY of them. */
const VSCODE_KEEPS = 10;
/** Room for hierarchies another extension prepares meanwhile. */
const KEPT_SAFELY = VSCODE_KEEPS - 3;

/** The hierarchies (VS Code's session ids) this extension prepared, oldest first. */
const prepared: string[] = [];

/** VS Code's id of the hierarchy an item belongs to (its items carry it, untyped). */
const sessionOf = (item: vscode.CallHierarchyItem): string | undefined =>
  (item as vscode.CallHierarchyItem & { _sessionId?: unknown })._sessionId as string | undefined;

function remember(item: vscode.CallHierarchyItem): void {
  const id = sessionOf(item);
  if (id === undefined || prepared.includes(id)) return;
  prepared.push(id);
  if (prepared.length > VSCODE_KEEPS) prepared.shift();
}

function alive(item: vscode.CallHierarchyItem): boolean {
  const id = sessionOf(item);
  return id !== undefined && prepared.lastIndexOf(id) >= prepared.length - KEPT_SAFELY;
}

/** A call hierarchy command, bounded: a provider waiting on a server that died may never answer. */
const ask = <T>(command: string, ...args: unknown[]) =>
  withTimeout(vscode.commands.executeCommand<T | undefined>(command, ...args), LANGUAGE_TIMEOUT_MS, command);

const prepareAt = async (uri: vscode.Uri, position: vscode.Position) => {
  const items = (await ask<vscode.CallHierarchyItem[]>('vscode.prepareCallHierarchy', uri, position)) ?? [];
  for (const i of items) remember(i);
  return items;
};

/** The end of the last command of ours in flight (oneAtATime). */
let turn: Promise<unknown> = Promise.resolve();

/**
 * Runs `f` once the call hierarchy commands before it ended. tsserver answers one request at a time
 * anyway (VS Code's TypeScript client sends the next once the last is answered), so little is lost;
 * each command is bounded, so a stuck one holds the others LANGUAGE_TIMEOUT_MS at most.
 */
function oneAtATime<T>(f: () => Promise<T>): Promise<T> {
  const run = turn.then(f, f);
  turn = run.catch(() => undefined);
  return run;
}

/** Items prepared again, by the item the core holds (its handle stays the item it was given first). */
const renewed = new WeakMap<vscode.CallHierarchyItem, vscode.CallHierarchyItem>();

/** `item`, or the same function in a freshly prepared hierarchy when VS Code may have dropped its own. */
async function current(item: vscode.CallHierarchyItem): Promise<vscode.CallHierarchyItem> {
  const known = renewed.get(item) ?? item;
  if (alive(known)) return known;
  const again = await prepareAt(item.uri, item.selectionRange.start);
  const same = again.find((i) => i.name === item.name && i.selectionRange.isEqual(item.selectionRange));
  if (!same)
    throw new Error(
      `${item.name} (${item.uri.fsPath}:${item.selectionRange.start.line + 1}) is no longer a function there; ask again`,
    );
  renewed.set(item, same);
  return same;
}

function toItem(item: vscode.CallHierarchyItem): CallHierarchyItem {
  return {
    name: item.name,
    kind: item.kind,
    ...(item.detail ? { detail: item.detail } : {}),
    filePath: item.uri.fsPath,
    range: plain(item.range),
    selectionRange: plain(item.selectionRange),
    handle: item,
  };
}

/** Symbol kinds a call hierarchy is about: vscode.SymbolKind Method, Constructor, Function (a stable enum). */
const CALLABLE = new Set([5, 8, 11]);

/**
 * Whether the document's symbols name a function, method or constructor at `at` (its name's range):
 * a call hierarchy provider would have an item there, so none answering means there is no provider.
 */
async function callableAt(doc: vscode.TextDocument, at: vscode.Position): Promise<boolean> {
  const symbols =
    (await ask<(vscode.DocumentSymbol | vscode.SymbolInformation)[]>(
      'vscode.executeDocumentSymbolProvider',
      doc.uri,
    )) ?? [];
  const walk = (list: readonly (vscode.DocumentSymbol | vscode.SymbolInformation)[]): boolean =>
    list.some((s) =>
      'selectionRange' in s
        ? (CALLABLE.has(s.kind) && s.selectionRange.contains(at)) || walk(s.children ?? [])
        : CALLABLE.has(s.kind) && s.location.range.start.isEqual(at),
    );
  return walk(symbols);
}

async function prepare(path: string, at: Position, signal: AbortSignal): Promise<CallHierarchyItem[] | Unavailable> {
  const doc = await openDocument(path);
  const position = new vscode.Position(at.line, at.character);
  const { answer, why } = await askLanguageServer(
    doc,
    () => oneAtATime(() => prepareAt(doc.uri, position)),
    // A position without a function answers nothing, for good: asked once the server is up.
    (r) => Array.isArray(r) && r.length > 0,
    signal,
  );
  const items = (answer ?? []).filter((i) => i.uri.scheme === 'file').map(toItem);
  if (items.length > 0) return items;
  const unavailable = await why();
  if (unavailable) return unavailable;
  if (await callableAt(doc, position))
    return {
      kind: 'unsupported',
      unavailable: `the ${doc.languageId} language server offers no call hierarchy`,
    };
  return items;
}

type Calls = { item: CallHierarchyItem; ranges: Range[] }[];

async function incoming(item: CallHierarchyItem, signal: AbortSignal): Promise<Calls> {
  const calls = await oneAtATime(async () =>
    ask<vscode.CallHierarchyIncomingCall[]>(
      'vscode.provideIncomingCalls',
      await current(item.handle as vscode.CallHierarchyItem),
    ),
  );
  signal.throwIfAborted();
  return (calls ?? [])
    .filter((c) => c.from.uri.scheme === 'file')
    .map((c) => ({ item: toItem(c.from), ranges: c.fromRanges.map(plain) }));
}

async function outgoing(item: CallHierarchyItem, signal: AbortSignal): Promise<Calls> {
  const calls = await oneAtATime(async () =>
    ask<vscode.CallHierarchyOutgoingCall[]>(
      'vscode.provideOutgoingCalls',
      await current(item.handle as vscode.CallHierarchyItem),
    ),
  );
  signal.throwIfAborted();
  return (calls ?? [])
    .filter((c) => c.to.uri.scheme === 'file')
    .map((c) => ({ item: toItem(c.to), ranges: c.fromRanges.map(plain) }));
}

export const vscodeCallHierarchy: CallHierarchy = { prepare, incoming, outgoing };
