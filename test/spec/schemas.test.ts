// Every rule a schema must satisfy lives in the lint (spec-lib/lint.ts, which codegen runs first);
// here every version must pass it. Each rule's own failing case is in test/codegen/lint.test.ts.

import { formatProblems, lintSpec } from '@idea-kit/spec-lib/lint';
import { loadSpec } from '@idea-kit/spec-lib/spec';
import { describe, expect, it } from 'vitest';
import { SPEC_ROOT, versions } from './load-spec';

describe.each(versions())('spec/%s', (versionDir) => {
  it('passes the strict schema lint (schemas, examples, defaults, titles, index)', () => {
    const spec = loadSpec(SPEC_ROOT, versionDir);
    expect(spec.docs.length).toBeGreaterThan(0);
    expect(formatProblems(SPEC_ROOT, spec, lintSpec(spec, { specRoot: SPEC_ROOT }))).toBe('');
  });
});
