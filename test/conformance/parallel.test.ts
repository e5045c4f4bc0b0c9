// Which cases the runner lets overlap: read-only cases on any workspace, except those that change the
// editor's shared state (an editor/open then an editor/context read, raced by another open).
import { describe, expect, it } from 'vitest';
import { loadCases } from '../../conformance/lib/load';
import { isParallelSafe } from '../../conformance/lib/run';

describe('isParallelSafe', () => {
  const cases = loadCases();

  it('never overlaps two cases that open editors (editor-open/with-range raced editor-open/file-start)', () => {
    const opening = cases.filter((c) => c.needs.includes('/app/vscode/editor/open'));
    expect(opening.map((c) => c.case.id)).toEqual(
      expect.arrayContaining(['editor-open/with-range', 'editor-open/file-start']),
    );
    expect(opening.filter(isParallelSafe).map((c) => c.case.id)).toEqual([]);
  });

  it('still overlaps the read-only cases of the other topics', () => {
    const find = cases.filter(
      (c) => c.topic === '/app/vscode/edit/find' && c.case.workspace === 'any' && !c.case.destructive,
    );
    expect(find.length).toBeGreaterThan(5);
    expect(find.every(isParallelSafe)).toBe(true);
  });
});
