// /app/vscode/localhistory/diff — unified diff (3 lines of context) from one side to the other; an
// omitted id is the file's current content ("current").
import { readFile } from 'node:fs/promises';
import { createTwoFilesPatch } from 'diff';
import { type CoreContext, resolvePath } from '../context';
import { invalidRequest } from '../errors';
import { formatUtcLabel } from '../local-history';
import type { Handlers } from '../protocol';

export function localhistoryDiff(svc: CoreContext): Handlers['localhistoryDiff'] {
  return async (params) => {
    const { path } = resolvePath(svc, params.filePath);
    const side = async (id: string | undefined): Promise<{ text: string; label: string }> => {
      if (id === undefined) {
        const text = await readFile(path, 'utf8').catch(() => {
          throw new Error(`cannot read ${path}`);
        });
        return { text, label: 'current' };
      }
      const entry = svc.history.find(path, id);
      if (!entry) throw invalidRequest(`unknown local-history id for this file: ${id}`);
      return { text: await readFile(entry.location, 'utf8'), label: formatUtcLabel(entry.timestamp) };
    };
    const from = await side(params.fromId);
    const to = await side(params.toId);
    const diff =
      from.text === to.text
        ? ''
        : createTwoFilesPatch(path, path, from.text, to.text, from.label, to.label, { context: 3 });
    return { diff, fromLabel: from.label, toLabel: to.label };
  };
}
