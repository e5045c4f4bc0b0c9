// The core's LanguageFeatures (server-core/host.ts) over VS Code's providers: each request waits for
// the document's language server (language-server.ts, ts-server.ts) and answers with plain positions;
// only file:// locations are returned. Languages without a server are asked once; an answer that is empty
// because no language server could give one says why (language-answer.ts, clause T48).
import * as vscode from 'vscode';
import type { RawDiagnostic } from '../../server-core/diagnostics';
import type { DefinitionTarget, LanguageFeatures, Position, Unavailable } from '../../server-core/host';
import type { FlatSymbol, TreeSymbol } from '../../server-core/symbols';
import { vscodeCallHierarchy } from './call-hierarchy';
import { vscodeCodeActions } from './code-actions';
import type { DiagnosticsTracker } from './diagnostics-wait';
import { openDocument, openDocumentOf, showInTab } from './documents';
import { vscodeWillRenameFiles } from './file-renames';
import { vscodeFormat } from './formatting';
import { vscodeHover } from './hover';
import { askLanguageServer, noLanguageServer, whyEmpty } from './language-answer';
import { documentSymbols, hasNoLanguageServer, LANGUAGE_TIMEOUT_MS, languageServerReady } from './language-server';
import { plain } from './plain-range';
import { vscodeProjects } from './projects';
import { vscodePrepareRename, vscodeRename } from './rename';
import { semanticServerReady, tsDiagnosticsCount } from './ts-server';
import { withTimeout } from './with-timeout';
import { vscodeWorkspaceSymbols } from './workspace-symbols';

type Def = vscode.Location | vscode.LocationLink;

/**
 * DocumentSymbol and SymbolInformation as the core's plain shapes (kinds in VS Code's numbering). Copied,
 * not passed through: VS Code's positions keep line and character behind getters, which a spread or
 * JSON drops (a name path's position came out as {} before).
 */
function symbolsOf(raw: readonly unknown[]): (TreeSymbol | FlatSymbol)[] {
  const tree = (s: vscode.DocumentSymbol): TreeSymbol => ({
    name: s.name,
    kind: s.kind,
    range: plain(s.range),
    selectionRange: plain(s.selectionRange),
    children: (s.children ?? []).map(tree),
  });
  const out: (TreeSymbol | FlatSymbol)[] = [];
  for (const s of raw) {
    if (typeof s !== 'object' || s === null) continue;
    if ('selectionRange' in s) out.push(tree(s as vscode.DocumentSymbol));
    else if ('location' in s) {
      const f = s as vscode.SymbolInformation;
      out.push({
        name: f.name,
        kind: f.kind,
        ...(f.containerName ? { containerName: f.containerName } : {}),
        location: { range: plain(f.location.range) },
      });
    }
  }
  return out;
}

const symbolsAskedOnce = async (doc: vscode.TextDocument) =>
  symbolsOf(
    (await withTimeout(
      vscode.commands.executeCommand<unknown[] | undefined>('vscode.executeDocumentSymbolProvider', doc.uri),
      LANGUAGE_TIMEOUT_MS,
      'document symbols',
    )) ?? [],
  );

/**
 * Symbols asked once (the core widening a location to its declaration), per open document (a reopened
 * file is a new object) and version: they follow from the text, and each ask is a language-server round
 * trip. Only non-empty answers: an empty one may be a server still starting.
 */
const symbolsOnce = new WeakMap<vscode.TextDocument, { version: number; symbols: (TreeSymbol | FlatSymbol)[] }>();

/** VS Code's commands answering Location | LocationLink lists for a position. */
type LocationCommand =
  | 'vscode.executeDefinitionProvider'
  | 'vscode.executeTypeDefinitionProvider'
  | 'vscode.executeImplementationProvider';

/** A location provider's answer at `at` as the core's targets (only file:// ones), or why there is none. */
async function targetsAt(
  command: LocationCommand,
  path: string,
  at: Position,
  signal: AbortSignal,
): Promise<DefinitionTarget[] | Unavailable> {
  const doc = await openDocument(path);
  const position = new vscode.Position(at.line, at.character);
  const { answer, why } = await askLanguageServer(
    doc,
    () => vscode.commands.executeCommand<Def[] | undefined>(command, doc.uri, position),
    (r) => Array.isArray(r) && r.length > 0,
    signal,
  );
  const out: DefinitionTarget[] = [];
  for (const d of answer ?? []) {
    if ('targetUri' in d) {
      if (d.targetUri.scheme !== 'file') continue;
      // The core reads the declaration's text from the editor copy or the disk; opening it keeps the editor's copy current.
      await openDocument(d.targetUri.fsPath);
      out.push({
        filePath: d.targetUri.fsPath,
        range: plain(d.targetSelectionRange ?? d.targetRange),
        targetRange: plain(d.targetRange),
      });
    } else if (d.uri.scheme === 'file') {
      await openDocument(d.uri.fsPath);
      out.push({ filePath: d.uri.fsPath, range: plain(d.range) });
    }
  }
  return out.length > 0 ? out : ((await why()) ?? out);
}

export function vscodeLanguageFeatures(tracker: DiagnosticsTracker): LanguageFeatures {
  const features: LanguageFeatures = {
    definition: (path, at, signal) => targetsAt('vscode.executeDefinitionProvider', path, at, signal),
    typeDefinition: (path, at, signal) => targetsAt('vscode.executeTypeDefinitionProvider', path, at, signal),
    implementation: (path, at, signal) => targetsAt('vscode.executeImplementationProvider', path, at, signal),
    hover: vscodeHover,
    prepareRename: vscodePrepareRename,
    rename: vscodeRename,
    workspaceSymbols: vscodeWorkspaceSymbols,
    callHierarchy: vscodeCallHierarchy,
    projects: vscodeProjects,

    // VS Code's command always includes the declaration; includeDeclaration=false drops the locations
    // the definition provider names.
    async references(path, at, includeDeclaration, signal) {
      const doc = await openDocument(path);
      const position = new vscode.Position(at.line, at.character);
      const { answer, why } = await askLanguageServer(
        doc,
        () =>
          vscode.commands.executeCommand<vscode.Location[] | undefined>(
            'vscode.executeReferenceProvider',
            doc.uri,
            position,
          ),
        (r) => Array.isArray(r) && r.length > 0,
        signal,
      );
      let refs = answer ?? [];
      if (refs.length === 0) return (await why()) ?? [];
      if (!includeDeclaration) {
        const defs =
          (await withTimeout(
            vscode.commands.executeCommand<Def[] | undefined>('vscode.executeDefinitionProvider', doc.uri, position),
            LANGUAGE_TIMEOUT_MS,
            'the definition provider',
          )) ?? [];
        const isDecl = (l: vscode.Location) =>
          defs.some((d) => {
            const u = 'targetUri' in d ? d.targetUri : d.uri;
            const r = 'targetUri' in d ? (d.targetSelectionRange ?? d.targetRange) : d.range;
            return u.toString() === l.uri.toString() && r.intersection(l.range) !== undefined;
          });
        refs = refs.filter((l) => !isDecl(l));
      }
      return refs
        .filter((l) => l.uri.scheme === 'file')
        .map((l) => ({ filePath: l.uri.fsPath, range: plain(l.range) }));
    },

    async documentSymbols(path, signal, mode) {
      const doc = await openDocument(path);
      if (mode === 'once') {
        const known = symbolsOnce.get(doc);
        if (known?.version === doc.version) return known.symbols;
        const version = doc.version; // before asking: an edit meanwhile leaves the answer unremembered
        const symbols = await symbolsAskedOnce(doc);
        if (symbols.length > 0) symbolsOnce.set(doc, { version, symbols });
        return symbols.length > 0 || !hasNoLanguageServer(doc) ? symbols : noLanguageServer(doc);
      }
      if (hasNoLanguageServer(doc)) {
        const symbols = await symbolsAskedOnce(doc);
        return symbols.length > 0 ? symbols : noLanguageServer(doc);
      }
      // Symbols come from tsserver's syntax server too: its state only matters for saying why there are none.
      const answer = await documentSymbols(doc.uri, signal);
      const symbols = symbolsOf(answer ?? []);
      if (symbols.length > 0) return symbols;
      return (await whyEmpty(doc, await semanticServerReady(doc, signal), answer === undefined)) ?? symbols;
    },

    async diagnostics(path, signal, since) {
      const wasOpen = openDocumentOf(path) !== undefined;
      const openedAt = Date.now();
      const doc = await openDocument(path);
      await showInTab(doc);
      const tsWhy = await semanticServerReady(doc, signal);
      if (!hasNoLanguageServer(doc) && !tsWhy) {
        // A TS file that tsserver finds clean and that shows no TS diagnostics yet gets no event: done.
        const tsCount = await tsDiagnosticsCount(doc, signal);
        const shownTs = vscode.languages.getDiagnostics(doc.uri).some((d) => d.source === 'ts');
        if (!(tsCount === 0 && !shownTs)) {
          // After a write: what was reported before it is of the old text, even for a file open then.
          const from = Math.max(wasOpen ? 0 : openedAt, since ?? 0);
          await tracker.settled(doc.uri, from, languageServerReady(doc.uri, signal), signal);
        }
      }
      const diagnostics = vscode.languages.getDiagnostics(doc.uri) as RawDiagnostic[];
      return diagnostics.length > 0 ? diagnostics : ((await whyEmpty(doc, tsWhy)) ?? diagnostics);
    },

    allDiagnostics() {
      return vscode.languages
        .getDiagnostics()
        .filter(([uri]) => uri.scheme === 'file')
        .map(([uri, list]) => ({ filePath: uri.fsPath, diagnostics: list as RawDiagnostic[] }));
    },
  };
  // v0.1.8's language edits: collected from VS Code's providers, written by the core (T54-T56).
  return {
    ...features,
    ...vscodeCodeActions((path, signal) => features.diagnostics(path, signal)),
    ...vscodeFormat(),
    ...vscodeWillRenameFiles(),
  };
}
