import { describe, expect, it } from 'vitest';
import { match, renderMismatch, unknownRuleKeys } from '../../conformance/lib/match';
import { bindFrom, readPath, substitute, UnknownVariableError } from '../../conformance/lib/vars';

describe('match rules', () => {
  it('matches objects as subsets but arrays exactly', () => {
    expect(match({ a: 1 }, { a: 1, extra: true }).ok).toBe(true);
    expect(match({ a: 1 }, { a: 2 }).problems).toEqual(['$.a: expected 1, got 2']);
    expect(match([1, 2], [1, 2, 3]).ok).toBe(false);
    expect(match([1, 2], [2, 1]).ok).toBe(false);
    expect(match({ a: { $absent: true } }, { a: 1 }).problems).toEqual(['$.a: expected to be absent']);
    expect(match({ a: { $absent: true } }, {}).ok).toBe(true);
    expect(match({ a: 1 }, {}).problems).toEqual(['$.a: missing']);
  });

  it('$exact refuses extra fields', () => {
    expect(match({ $exact: { a: 1 } }, { a: 1 }).ok).toBe(true);
    expect(match({ $exact: { a: 1 } }, { a: 1, b: 2 }).problems).toEqual(['$.b: unexpected field']);
  });

  it('$type, $match, $oneOf, $any, numeric ranges', () => {
    expect(match({ $type: 'integer' }, 3).ok).toBe(true);
    expect(match({ $type: 'integer' }, 3.5).ok).toBe(false);
    expect(match({ $type: ['string', 'null'] }, null).ok).toBe(true);
    expect(match({ $match: '^[0-9a-f]{40}$' }, 'a'.repeat(40)).ok).toBe(true);
    expect(match({ $match: '^[0-9a-f]{40}$' }, 'a'.repeat(39)).ok).toBe(false);
    expect(match({ $match: 'ABC', $flags: 'i' }, 'xabcx').ok).toBe(true);
    expect(match({ $oneOf: ['INVALID_REQUEST', 'HANDLER_ERROR'] }, 'HANDLER_ERROR').ok).toBe(true);
    expect(match({ $oneOf: ['INVALID_REQUEST', 'HANDLER_ERROR'] }, 'PARSE_ERROR').ok).toBe(false);
    expect(match({ x: { $any: true } }, {}).ok).toBe(false);
    expect(match({ $gte: 1, $lte: 3 }, 2).ok).toBe(true);
    expect(match({ $gte: 1, $lte: 3 }, 4).ok).toBe(false);
  });

  it('$unordered pairs elements in any order and keeps the length', () => {
    expect(match({ $unordered: [{ a: 1 }, { a: 2 }] }, [{ a: 2 }, { a: 1 }]).ok).toBe(true);
    expect(match({ $unordered: [{ a: 1 }, { a: 2 }] }, [{ a: 2 }, { a: 1 }, { a: 3 }]).ok).toBe(false);
    expect(match({ $unordered: [{ a: 1 }, { a: 1 }] }, [{ a: 1 }, { a: 2 }]).ok).toBe(false);
  });

  it('$contains, $each and lengths', () => {
    expect(match({ $contains: [2] }, [1, 2, 3]).ok).toBe(true);
    expect(match({ $contains: [4] }, [1, 2, 3]).ok).toBe(false);
    expect(match({ $each: { $type: 'integer' }, $minLength: 2 }, [1, 2]).ok).toBe(true);
    expect(match({ $each: { $type: 'integer' }, $minLength: 3 }, [1, 2]).ok).toBe(false);
    expect(match({ $each: { $type: 'integer' } }, [1, 'x']).problems).toEqual([
      '$[1]: expected type integer, got string',
    ]);
    expect(match({ $length: 0 }, []).ok).toBe(true);
  });

  it('$lines finds lines in order, $subsequences checks relative order', () => {
    const diff = '--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n';
    expect(match({ $lines: ['-old', '+new'] }, diff).ok).toBe(true);
    expect(match({ $lines: ['+new', '-old'] }, diff).ok).toBe(false);
    expect(match({ $lines: ['-ol'] }, diff).ok).toBe(false);
    const syms = [{ n: 'A' }, { n: 'a1', c: 'A' }, { n: 'B' }, { n: 'b1', c: 'B' }];
    expect(
      match(
        {
          $subsequences: [
            [{ n: 'A' }, { c: 'A' }],
            [{ n: 'B' }, { c: 'B' }],
          ],
        },
        syms,
      ).ok,
    ).toBe(true);
    expect(match({ $subsequences: [[{ c: 'A' }, { n: 'A' }]] }, syms).ok).toBe(false);
  });

  it('flags unknown rule keys', () => {
    expect(unknownRuleKeys({ a: { $typo: 1 }, b: [{ $type: 'string' }] })).toEqual(['$.a.$typo']);
  });

  it('renders a diff that shows only the real differences', () => {
    const out = match(
      { hash: { $match: '^[0-9a-f]{40}$' }, line: 3, items: { $unordered: [1, 2] } },
      { hash: 'f'.repeat(40), line: 4, items: [2, 1] },
    );
    const text = renderMismatch(out, 'response');
    expect(text).toContain('$.line: expected 3, got 4');
    expect(text).toContain('-  "line": 3,');
    expect(text).toContain('+  "line": 4,');
    expect(text).not.toMatch(/^[-+] {2}"hash"/m); // the rule matched: same on both sides
    expect(text).not.toMatch(/^[-+] {4}[12]/m); // unordered elements paired, not shown as changes
  });
});

describe('variables', () => {
  it('substitutes placeholders, escapes them inside $match, and keeps $${…} literal', () => {
    const vars = { workspace: '/tmp/w (1)', 'commit.a': 'abc' };
    expect(substitute({ p: '${workspace}/src', h: '${commit.a}' }, vars)).toEqual({ p: '/tmp/w (1)/src', h: 'abc' });
    expect(substitute({ $match: '^${workspace}/x$' }, vars)).toEqual({ $match: '^\\/tmp\\/w \\(1\\)/x$' });
    expect(substitute('`$${shape.name}`', vars)).toBe('`${shape.name}`');
    expect(() => substitute('${nope}', vars)).toThrow(UnknownVariableError);
  });

  it('reads bind paths', () => {
    const frame = { result: { entries: [{ id: 'AbCd.md' }] } };
    expect(readPath(frame, '$.result.entries[0].id')).toBe('AbCd.md');
    expect(readPath(frame, '$.result.entries[3].id')).toBeUndefined();
    expect(bindFrom(frame, { x: '$.result.entries[0].id' })).toEqual({ vars: { x: 'AbCd.md' } });
    expect(bindFrom(frame, { x: '$.result.entries[1].id' }).problem).toMatch(/undefined/);
  });
});
