// /app/vscode/history/diff — index mode (history/list indices, 0 = working tree; always older → newer,
// working tree compared with the commit, never with the git index) or ref mode (fromRef → toRef, an
// omitted side is the working tree). Index mode wins whenever an index is given. Reading 2 (clause R2 of
// generated/<v>/protocol.md): the labels name the sides as requested ("working-tree" for index 0,
// "HEAD" for 1, else the full hash), and the working tree is only ever the from side, against HEAD.

import { type CoreContext, resolvePath } from '../context';
import { invalidRequest } from '../errors';
import { commitsAtIndices, diffFile, repoFileOf, resolveRef } from '../git';
import type { Handlers } from '../protocol';

const WORKING_TREE = 'working-tree';
const HEAD = 'HEAD';

/** The label of a side: how it was requested, a full hash only where neither name applies. */
function sideLabel(index: number, hash: string | null): string {
  return index === 0 ? WORKING_TREE : index === 1 ? HEAD : hash!;
}

export function historyDiff(svc: CoreContext): Handlers['historyDiff'] {
  return async (params, ctx) => {
    const { signal } = ctx;
    const { real } = resolvePath(svc, params.filePath);
    const repo = await repoFileOf(real, signal);
    const indexMode =
      params.fromIndex !== undefined ||
      params.toIndex !== undefined ||
      (params.fromRef === undefined && params.toRef === undefined);
    if (indexMode) {
      // Not schema defaults: an omitted side depends on the other (see the params description).
      const a = params.fromIndex ?? 0;
      const b = params.toIndex ?? 1;
      if (b === 0)
        throw invalidRequest('toIndex 0: the working tree is only ever the from side (fromIndex 0, toIndex 1)');
      if (a === 0 && b !== 1)
        throw invalidRequest(`fromIndex 0 (the working tree) compares with HEAD only: toIndex must be 1, got ${b}`);
      const older = Math.max(a, b);
      const newer = Math.min(a, b);
      const [olderHash = null, newerHash = null] = await commitsAtIndices(
        repo,
        [older, newer].filter((i) => i !== 0),
        signal,
      );
      const labels = {
        fromRef: sideLabel(a, a === older ? olderHash : newerHash),
        toRef: sideLabel(b, b === older ? olderHash : newerHash),
      };
      if (older === newer) return { diff: '', ...labels };
      return { diff: await diffFile(repo, olderHash!, newerHash, false, signal), ...labels };
    }
    const fromHash = params.fromRef === undefined ? null : await resolveRef(repo.root, params.fromRef, signal);
    const toHash = params.toRef === undefined ? null : await resolveRef(repo.root, params.toRef, signal);
    let diff: string;
    if (fromHash && toHash) diff = await diffFile(repo, fromHash, toHash, false, signal);
    else if (fromHash) diff = await diffFile(repo, fromHash, null, false, signal);
    else diff = await diffFile(repo, toHash!, null, true, signal); // working tree → toRef: git puts the commit first, -R swaps
    return { diff, fromRef: params.fromRef ?? WORKING_TREE, toRef: params.toRef ?? WORKING_TREE };
  };
}
