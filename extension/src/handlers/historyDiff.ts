// /app/vscode/history/diff — index mode (history/list indices, 0 = working tree; always older → newer,
// working tree compared with the commit, never with the git index) or ref mode (fromRef → toRef, an
// omitted side is the working tree). Index mode wins whenever an index is given.
import { commitAtIndex, diffFile, repoFileOf, resolveRef } from '../git';
import type { Handlers } from '../protocol';
import { resolvePath, type Services } from '../services';

const WORKING_TREE = 'working-tree';

export function historyDiff(svc: Services): Handlers['historyDiff'] {
  return async (params) => {
    const { real } = resolvePath(svc, params.filePath);
    const repo = await repoFileOf(real);
    const indexMode = params.fromIndex !== undefined || params.toIndex !== undefined || (params.fromRef === undefined && params.toRef === undefined);
    if (indexMode) {
      // Not schema defaults: an omitted side depends on the other (see the params description).
      const a = params.fromIndex ?? 0;
      const b = params.toIndex ?? 1;
      const older = Math.max(a, b);
      const newer = Math.min(a, b);
      const olderHash = older === 0 ? null : await commitAtIndex(repo, older);
      const newerHash = newer === 0 ? null : await commitAtIndex(repo, newer);
      if (older === newer) return { diff: '', fromRef: olderHash ?? WORKING_TREE, toRef: newerHash ?? WORKING_TREE };
      return { diff: await diffFile(repo, olderHash!, newerHash), fromRef: olderHash!, toRef: newerHash ?? WORKING_TREE };
    }
    const fromHash = params.fromRef === undefined ? null : await resolveRef(repo.root, params.fromRef);
    const toHash = params.toRef === undefined ? null : await resolveRef(repo.root, params.toRef);
    let diff: string;
    if (fromHash && toHash) diff = await diffFile(repo, fromHash, toHash);
    else if (fromHash) diff = await diffFile(repo, fromHash, null);
    else diff = await diffFile(repo, toHash!, null, true); // working tree → toRef: git puts the commit first, -R swaps
    return { diff, fromRef: params.fromRef ?? WORKING_TREE, toRef: params.toRef ?? WORKING_TREE };
  };
}
