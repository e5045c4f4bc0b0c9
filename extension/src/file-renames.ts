// The edits a file or folder move needs in the files that import it, in VS Code (server-core/host.ts
// willRenameFiles; T56). VS Code hands its onWillRenameFiles participants' edits only to a rename it
// applies itself, writing outside the transaction, and the TypeScript extension lets no other extension
// ask tsserver for getEditsForFileRename (`typescript.tsserverRequest` allows only a few read-only
// requests). So the edits come from TypeScript's own getEditsForFileRename, run here on the TypeScript
// VS Code ships (its extensions/node_modules/typescript: VS Code's code, never the workspace's, H19),
// over a language service for the projects concerned: the nearest tsconfig.json/jsconfig.json of each
// renamed path, the workspace folders' own, and the projects they reference (at most MAX_PROJECTS, at
// most MAX_FILES files in all). Files are read as VS Code holds them (unsaved text included) or from
// disk; no library or types package is loaded (module specifiers need none). Only TypeScript and
// JavaScript imports are updated; any other file moves with nothing to update.
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import type * as TS from 'typescript';
import * as vscode from 'vscode';
import type { LanguageFeatures, PlannedChange, Unavailable } from '../../server-core/host';
import { PlanBuilder } from '../../server-core/plan-builder';
import { lineStarts, positionAt } from '../../server-core/symbol-text';
import { openDocumentOf } from './documents';

/** Most projects one move asks. */
export const MAX_PROJECTS = 32;
/** Most source files across them; beyond, the move's importers cannot be computed here. */
export const MAX_FILES = 20_000;

/** Extensions whose importers TypeScript updates. */
const IMPORTABLE = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json', '.d.ts']);

let loaded: typeof TS | undefined;

/** VS Code's own TypeScript (what its TypeScript extension runs by default). */
function bundledTypeScript(): typeof TS {
  loaded ??= createRequire(join(vscode.env.appRoot, 'package.json'))(
    join(vscode.env.appRoot, 'extensions', 'node_modules', 'typescript'),
  ) as typeof TS;
  return loaded;
}

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The config files of the projects concerned (see the header), references followed breadth first. */
function projectConfigs(ts: typeof TS, paths: readonly string[]): string[] {
  const start: string[] = [];
  const nearest = (from: string) =>
    ts.findConfigFile(from, ts.sys.fileExists, 'tsconfig.json') ??
    ts.findConfigFile(from, ts.sys.fileExists, 'jsconfig.json');
  for (const p of paths) {
    const found = nearest(isFolder(p) ? p : dirname(p));
    if (found) start.push(resolve(found));
  }
  for (const folder of (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file'))
    for (const name of ['tsconfig.json', 'jsconfig.json']) {
      const path = join(folder.uri.fsPath, name);
      if (existsSync(path)) start.push(path);
    }
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length > 0 && seen.size < MAX_PROJECTS) {
    const config = queue.shift()!;
    if (seen.has(config)) continue;
    seen.add(config);
    const parsed = ts.getParsedCommandLineOfConfigFile(
      config,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    for (const ref of parsed?.projectReferences ?? []) {
      const path = ts.resolveProjectReferencePath(ref);
      if (existsSync(path)) queue.push(resolve(path));
    }
  }
  return [...seen];
}

export function vscodeWillRenameFiles(): Required<Pick<LanguageFeatures, 'willRenameFiles'>> {
  return {
    async willRenameFiles(renames, signal): Promise<PlannedChange[] | Unavailable> {
      const concerned = renames.filter((r) => isFolder(r.oldPath) || IMPORTABLE.has(extname(r.oldPath).toLowerCase()));
      if (concerned.length === 0) return [];
      let ts: typeof TS;
      try {
        ts = bundledTypeScript();
      } catch (e) {
        return { unavailable: `VS Code's TypeScript could not be loaded: ${(e as Error).message}`, kind: 'down' };
      }
      const textOf = (file: string): string | undefined =>
        openDocumentOf(file)?.getText() ?? (ts.sys.fileExists(file) ? ts.sys.readFile(file) : undefined);
      const texts = new Map<string, string | undefined>();
      const cachedText = (file: string) => {
        if (!texts.has(file)) texts.set(file, textOf(file));
        return texts.get(file);
      };
      const seen = new Set<string>();
      const plan = new PlanBuilder();
      let files = 0;
      for (const config of projectConfigs(
        ts,
        concerned.map((r) => r.oldPath),
      )) {
        signal.throwIfAborted();
        const parsed = ts.getParsedCommandLineOfConfigFile(
          config,
          {},
          { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
        );
        if (!parsed) continue;
        files += parsed.fileNames.length;
        if (files > MAX_FILES)
          return {
            unavailable: `the projects of this move hold more than ${MAX_FILES} files, more than IDEA computes a move's imports for in VS Code`,
            kind: 'unsupported',
          };
        const options = { ...parsed.options, noLib: true, types: [] };
        const host: TS.LanguageServiceHost = {
          getCompilationSettings: () => options,
          getScriptFileNames: () => parsed.fileNames,
          getScriptVersion: () => '0',
          getScriptSnapshot: (file) => {
            const text = cachedText(file);
            return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
          },
          getCurrentDirectory: () => dirname(config),
          getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
          fileExists: ts.sys.fileExists,
          readFile: ts.sys.readFile,
          readDirectory: ts.sys.readDirectory,
          directoryExists: ts.sys.directoryExists,
          getDirectories: ts.sys.getDirectories,
          useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
        };
        const service = ts.createLanguageService(host, ts.createDocumentRegistry());
        try {
          for (const { oldPath, newPath } of concerned) {
            const changes = service.getEditsForFileRename(oldPath, newPath, ts.getDefaultFormatCodeSettings(), {});
            for (const change of changes) {
              const text = change.isNewFile ? '' : (cachedText(change.fileName) ?? '');
              const starts = lineStarts(text);
              const at = (offset: number) => positionAt(starts, offset);
              const edits = change.textChanges
                .filter((c) => {
                  const key = `${change.fileName}\n${c.span.start}\n${c.span.length}\n${c.newText}`;
                  if (seen.has(key)) return false; // a file of two projects: its edit once
                  seen.add(key);
                  return true;
                })
                .map((c) => ({
                  range: { start: at(c.span.start), end: at(c.span.start + c.span.length) },
                  newText: c.newText,
                }));
              if (edits.length > 0) plan.edit(resolve(change.fileName), edits);
            }
          }
        } finally {
          service.dispose();
        }
      }
      return plan.plan();
    },
  };
}
