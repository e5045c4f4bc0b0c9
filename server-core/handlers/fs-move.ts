// /app/vscode/fs/move — a file or folder moved or renamed with what refers to it updated (clause T56):
// with `updateImports` (the default) every project is loaded first (T47) and the host's language
// servers give the edits of the files that import it (LanguageFeatures.willRenameFiles: LSP
// workspace/willRenameFiles, in VS Code TypeScript's getEditsForFileRename); those edits and the rename
// are written as one transaction as edit/apply writes them (the edits first: they are in the files as
// they are before the move). A target that exists is refused unless `overwrite` (a file over a file).
// When the importers cannot be computed (their language server is down), nothing is moved: the client
// may move without them (updateImports: false).
import { existsSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import { type CoreContext, resolvePath } from '../context';
import { invalidRequest, ProtocolError } from '../errors';
import { isUnavailable, type LanguageFeatures, type PlannedChange } from '../host';
import { coverWorkspace } from '../projects';
import type { Handlers } from '../protocol';
import type { WritePlan } from './language-edit';

type WillRenameFiles = NonNullable<LanguageFeatures['willRenameFiles']>;

const kindOf = (path: string): 'file' | 'folder' | undefined => {
  try {
    const st = statSync(path);
    return st.isDirectory() ? 'folder' : 'file';
  } catch {
    return undefined;
  }
};

export function fsMove(
  svc: CoreContext,
  willRenameFiles: WillRenameFiles | undefined,
  write: WritePlan,
): Handlers['fsMove'] {
  return async (params, ctx) => {
    const { path } = resolvePath(svc, params.filePath);
    const { path: newPath } = resolvePath(svc, params.newFilePath);
    const what = kindOf(path);
    if (!what) throw invalidRequest(`${path} does not exist`);
    if (newPath === path) throw invalidRequest(`${path} is already there`);
    if (what === 'folder' && newPath.startsWith(`${path}${sep}`))
      throw invalidRequest(`${path} cannot move into itself`);
    if (existsSync(newPath)) {
      if (!params.overwrite) throw invalidRequest(`${newPath} exists; overwrite: true replaces a file`);
      if (what === 'folder' || kindOf(newPath) === 'folder')
        throw invalidRequest(`${newPath} exists; overwrite replaces a file with a file only`);
    }
    let edits: PlannedChange[] = [];
    if (params.updateImports && willRenameFiles) {
      const covered = await coverWorkspace(svc, ctx.signal, what === 'file' ? path : undefined);
      // fs/move's result has no coverage (T56): say in the log which importers may be left as they were.
      if (covered.notSearched.length > 0)
        svc.tools.log(
          `fs/move ${path}: ${covered.notSearched.length} project(s) not loaded, their imports of it not updated: ${covered.notSearched.map((n) => `${n.path} (${n.reason})`).join('; ')}`,
        );
      const planned = await willRenameFiles([{ oldPath: path, newPath }], ctx.signal);
      if (isUnavailable(planned))
        throw new ProtocolError(
          'HANDLER_ERROR',
          `the files that import ${path} cannot be updated: ${planned.unavailable}; nothing was moved (updateImports: false moves it without them)`,
        );
      edits = planned;
    }
    return write(
      [
        ...edits,
        { kind: 'rename', filePath: path, newFilePath: newPath, ...(params.overwrite && { overwrite: true }) },
      ],
      {
        what: 'fs/move',
        label: `move ${path} to ${newPath}`,
        dryRun: params.dryRun,
      },
      ctx,
    );
  };
}
