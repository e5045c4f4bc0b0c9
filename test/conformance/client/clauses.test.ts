// The client clauses the client suite judges: read from the newest spec folder (so the import in
// conformance/lib/clauses.ts moves with the spec), those binding clients or both sides, each rendered
// in that folder's protocol.md under the anchor the reports link to.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSpec, specVersions } from '@idea-kit/spec-lib/spec';
import { versionFolder } from '@idea-kit/spec-lib/version';
import { describe, expect, it } from 'vitest';
import { CLIENT_CLAUSES, CLIENT_CLAUSES_FOLDER, clauseAnchor, clauseLink } from '../../../conformance/lib/clauses';
import { ROOT } from '../../../scripts/build';

describe('the client clauses', () => {
  it('come from the newest spec folder: when a newer one is bumped, the import must follow it', () => {
    const newest = specVersions(join(ROOT, 'spec')).at(-1)!;
    expect(CLIENT_CLAUSES_FOLDER).toBe(versionFolder(newest));
    const binding = loadSpec(join(ROOT, 'spec'), newest).clauses.filter(
      (c) => c.binds === 'client' || c.binds === 'both',
    );
    expect([...CLIENT_CLAUSES.keys()]).toEqual(binding.map((c) => c.id));
  });

  it('are rendered where the reports link them, the C clauses in the draft, the others in the served version', () => {
    const md = readFileSync(join(ROOT, 'generated', CLIENT_CLAUSES_FOLDER, 'protocol.md'), 'utf8');
    for (const c of CLIENT_CLAUSES.values()) {
      expect(md, c.id).toContain(`<a id="${clauseAnchor(c.id)}"></a>**${c.id}. ${c.title}**`);
      const [doc] = clauseLink(c.id).split('#');
      expect(readFileSync(join(ROOT, doc!), 'utf8'), c.id).toContain(`<a id="${clauseAnchor(c.id)}"></a>`);
    }
    expect(clauseLink('C1')).toBe(`generated/${CLIENT_CLAUSES_FOLDER}/protocol.md#clause-c1`);
  });
});
