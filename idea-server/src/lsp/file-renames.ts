// The edits language servers give for files and folders about to be renamed (server-core/host.ts
// willRenameFiles; T56): LSP workspace/willRenameFiles, asked of each server concerned that announced
// it, collected as a plan, never written here. A server answers from the projects it has loaded, so
// each is first given a file of the renamed set (the file itself, or one of its language in the
// folder): its project loads (tsserver's getEditsForFileRename goes over the loaded projects).
import { type Dirent, statSync } from 'node:fs';
import { opendir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LanguageFeatures, PlannedChange, Unavailable } from '../../../server-core/host';
import { unavailableOf } from '../lsp-features';
import type { LspClient } from './client';
import { LspUnavailableError } from './errors';
import { toPlannedChanges } from './workspace-edit';

/** Entries a folder's walk looks at for a file of each language, at most. */
export const MAX_WALK_ENTRIES = 5_000;

/** Folders a walk never enters: they hold no file whose importers a rename would update. */
const SKIPPED = new Set(['node_modules', '.git']);

/**
 * One file of each language `languageOf` knows under `folder`, breadth first, at most `maxEntries`
 * entries looked at; symlinks are not followed.
 */
export async function filePerLanguage(
  folder: string,
  languageOf: (path: string) => string | undefined,
  signal: AbortSignal,
  maxEntries = MAX_WALK_ENTRIES,
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const queue = [folder];
  let seen = 0;
  while (queue.length > 0 && seen < maxEntries) {
    signal.throwIfAborted();
    const dir = queue.shift()!;
    const entries: Dirent[] = [];
    try {
      for await (const e of await opendir(dir)) {
        entries.push(e);
        if (++seen >= maxEntries) break;
      }
    } catch {
      continue; // unreadable: nothing of it is known
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIPPED.has(e.name)) queue.push(path);
      } else if (e.isFile()) {
        const language = languageOf(path);
        if (language !== undefined && !found.has(language)) found.set(language, path);
      }
    }
  }
  return found;
}

export function lspWillRenameFiles(client: LspClient): Required<Pick<LanguageFeatures, 'willRenameFiles'>> {
  return {
    async willRenameFiles(renames, signal): Promise<PlannedChange[] | Unavailable> {
      // Each language concerned, with a file of it to open.
      const byLanguage = new Map<string, string>();
      for (const { oldPath } of renames) {
        let isFolder = false;
        try {
          isFolder = statSync(oldPath).isDirectory();
        } catch {
          continue; // missing: the write refuses it, naming it
        }
        const files = isFolder
          ? await filePerLanguage(oldPath, (p) => client.languageOf(p), signal)
          : new Map(client.languageOf(oldPath) ? [[client.languageOf(oldPath)!, oldPath]] : []);
        for (const [language, file] of files) if (!byLanguage.has(language)) byLanguage.set(language, file);
      }
      const files = renames.map((r) => ({
        oldUri: pathToFileURL(r.oldPath).href,
        newUri: pathToFileURL(r.newPath).href,
      }));
      const plan: PlannedChange[] = [];
      for (const file of byLanguage.values()) {
        let opened: Awaited<ReturnType<LspClient['server']>>;
        try {
          opened = await client.server(file, { signal });
        } catch (e) {
          // A server that should answer and cannot: the importers cannot be updated (the core says so).
          if (e instanceof LspUnavailableError) return unavailableOf(e);
          throw e;
        }
        const { server, bounds } = opened;
        if (!server.capabilities.workspace?.fileOperations?.willRename) continue;
        const answer = await server.request<unknown>('workspace/willRenameFiles', { files }, 'willRenameFiles', bounds);
        plan.push(...toPlannedChanges([answer]));
      }
      return plan;
    },
  };
}
