import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listVersions } from '../../codegen/src/spec';

describe('listVersions', () => {
  const root = mkdtempSync(join(tmpdir(), 'idea-spec-versions-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('orders version folders numerically and ignores everything else', () => {
    for (const d of ['v0.1.10', 'v0.1.9', 'v1.0.0', 'v0.2.0', 'v0.1.2', 'drafts', 'v0.1']) mkdirSync(join(root, d));
    writeFileSync(join(root, 'v0.3.0'), 'a file, not a folder');
    expect(listVersions(root)).toEqual(['v0.1.2', 'v0.1.9', 'v0.1.10', 'v0.2.0', 'v1.0.0']);
  });
});
