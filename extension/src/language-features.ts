// The core's LanguageFeatures (server-core/host.ts) over VS Code's providers: each request waits for
// the document's language server (language-server.ts, ts-server.ts) and answers with plain positions;
// only file:// locations are returned. Languages without a server are asked once.
import * as vscode from 'vscode';
import type { RawDiagnostic } from '../../server-core/diagnostics';
import type { DefinitionTarget, LanguageFeatures, Position } from '../../server-core/host';
import type { FlatSymbol, TreeSymbol } from '../../server-core/symbols';
import { vscodeCodeActions } from './code-actions';
import type { DiagnosticsTracker } from './diagnostics-wait';
import { openDocument, openDocumentOf, showInTab } from './documents';
import { vscodeWillRenameFiles } from './file-renames';
import { vscodeFormat } from './formatting';
import { vscodeHover } from './hover';
import { documentSymbols, hasNoLanguageServer, languageServerReady, untilAnswered } from './language-server';
import { plain } from './plain-range';
import { vscodePrepareRename, vscodeRename } from './rename';
import { semanticServerReady, tsDiagnosticsCount } from './ts-server';

type Def = vscode.Location | vscode.LocationLink;

/** DocumentSymbol and SymbolInformation have the core's shapes (kinds in VS Code's numbering). */
const symbolsOf = (raw: readonly unknown[]) =>
  raw.filter((s) => typeof s === 'object' && s !== null) as (TreeSymbol | FlatSymbol)[];

const symbolsAskedOnce = async (doc: vscode.TextDocument) =>
  symbolsOf(
    (await vscode.commands.executeCommand<unknown[] | undefined>('vscode.executeDocumentSymbolProvider', doc.uri)) ??
      [],
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

async function locationsAt(
  command: LocationCommand,
  doc: vscode.TextDocument,
  position: vscode.Position,
  signal: AbortSignal,
): Promise<Def[]> {
  await semanticServerReady(doc, signal);
  const call = () => vscode.commands.executeCommand<Def[] | undefined>(command, doc.uri, position);
  return (
    (hasNoLanguageServer(doc)
      ? await call()
      : await untilAnswered(call, (r) => Array.isArray(r) && r.length > 0, doc.uri, signal)) ?? []
  );
}

/** A location provider's answer at `at` as the core's targets; only file:// ones. */
async function targetsAt(command: LocationCommand, path: string, at: Position, signal: AbortSignal) {
  const doc = await openDocument(path);
  const defs = await locationsAt(command, doc, new vscode.Position(at.line, at.character), signal);
  const out: DefinitionTarget[] = [];
  for (const d of defs) {
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
  return out;
}

export function vscodeLanguageFeatures(tracker: DiagnosticsTracker): LanguageFeatures {
  const features: LanguageFeatures = {
    definition: (path, at, signal) => targetsAt('vscode.executeDefinitionProvider', path, at, signal),
    typeDefinition: (path, at, signal) => targetsAt('vscode.executeTypeDefinitionProvider', path, at, signal),
    implementation: (path, at, signal) => targetsAt('vscode.executeImplementationProvider', path, at, signal),
    hover: vscodeHover,
    prepareRename: vscodePrepareRename,
    rename: vscodeRename,

    // VS Code's command always includes the declaration; includeDeclaration=false drops the locations
    // the definition provider names.
    async references(path, at, includeDeclaration, signal) {
      const doc = await openDocument(path);
      const position = new vscode.Position(at.line, at.character);
      await semanticServerReady(doc, signal);
      const call = () =>
        vscode.commands.executeCommand<vscode.Location[] | undefined>(
          'vscode.executeReferenceProvider',
          doc.uri,
          position,
        );
      let refs =
        (hasNoLanguageServer(doc)
          ? await call()
          : await untilAnswered(call, (r) => Array.isArray(r) && r.length > 0, doc.uri, signal)) ?? [];
      if (!includeDeclaration) {
        const defs =
          (await vscode.commands.executeCommand<Def[] | undefined>(
            'vscode.executeDefinitionProvider',
            doc.uri,
            position,
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
        return symbols;
      }
      return hasNoLanguageServer(doc) ? symbolsAskedOnce(doc) : symbolsOf(await documentSymbols(doc.uri, signal));
    },

    async diagnostics(path, signal, since) {
      const wasOpen = openDocumentOf(path) !== undefined;
      const openedAt = Date.now();
      const doc = await openDocument(path);
      await showInTab(doc);
      if (!hasNoLanguageServer(doc)) {
        // A TS file that tsserver finds clean and that shows no TS diagnostics yet gets no event: done.
        const tsCount = await tsDiagnosticsCount(doc, signal);
        const shownTs = vscode.languages.getDiagnostics(doc.uri).some((d) => d.source === 'ts');
        if (!(tsCount === 0 && !shownTs)) {
          // After a write: what was reported before it is of the old text, even for a file open then.
          const from = Math.max(wasOpen ? 0 : openedAt, since ?? 0);
          await tracker.settled(doc.uri, from, languageServerReady(doc.uri, signal), signal);
        }
      }
      return vscode.languages.getDiagnostics(doc.uri) as RawDiagnostic[];
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
