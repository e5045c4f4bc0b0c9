// clause T45's text rules (server-core/symbol-text.ts): a signature stops at the first `{` outside
// parentheses, brackets and quotes or at the first line break outside parentheses and brackets, folded
// and bounded; a body starts at the block of comment, decorator and attribute lines directly above.
import { describe, expect, it } from 'vitest';
import { leadingBlockStart, lineStarts, MAX_SIGNATURE, offsetIn, signatureAt } from '../../server-core/symbol-text';

const sig = (text: string) => signatureAt(text, 0, text.length);

describe('signatureAt', () => {
  it.each([
    ['class Shape extends Base {\n  x = 1;\n}', 'class Shape extends Base'],
    ['area(): number {\n  return 1;\n}', 'area(): number'],
    [
      'route(\n  path: string,\n  handler: (c: { a: number }) => void,\n): this {',
      'route( path: string, handler: (c: { a: number }) => void, ): this',
    ],
    ['const brace = \'{\' + "}" + `{`;\nnext', 'const brace = \'{\' + "}" + `{`;'],
    ['export const f = (a: number) => {\n  return a;\n};', 'export const f = (a: number) =>'],
    ['type T = [\n  a: string,\n  b: number\n];', 'type T = [ a: string, b: number ];'],
    ['def area(self) -> float:\n    return 1', 'def area(self) -> float:'],
    ['fn main() -> Result<(), Error> {', 'fn main() -> Result<(), Error>'],
    ['const s = "a \\" {";\n', 'const s = "a \\" {";'],
    ['x\r\ny', 'x'],
    ['   spaced    out   {', 'spaced out'],
  ])('%j → %j', (text, expected) => {
    expect(sig(text)).toBe(expected);
  });

  it('stops at the end of the range, and is at most MAX_SIGNATURE characters', () => {
    expect(signatureAt('abcdef {', 0, 3)).toBe('abc');
    expect(sig(`f(${'a, '.repeat(1000)}) {`)).toHaveLength(MAX_SIGNATURE);
    // An unclosed parenthesis over a large text scans a bounded stretch only.
    const huge = `f(${'x\n'.repeat(500_000)}`;
    const started = performance.now();
    expect(signatureAt(huge, 0, huge.length).length).toBe(MAX_SIGNATURE);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('leadingBlockStart', () => {
  const TEXT = [
    'export class A {', // 0
    '  x = 1;', // 1
    '  /**', // 2
    '   * The area.', // 3
    '   */', // 4
    '  @memo()', // 5
    '  // trailing note', // 6
    '  area() {}', // 7
    '', // 8
    '  # attribute', // 9
    '  #[inline]', // 10
    '  b() {}', // 11
    '  // detached', // 12
    '', // 13
    '  c() {}', // 14
    '}', // 15
  ].join('\n');
  const starts = lineStarts(TEXT);
  it('is the first line of the comment, decorator and attribute block directly above', () => {
    expect(leadingBlockStart(TEXT, starts, 7, 1)).toEqual({ line: 2, character: 2 });
    expect(leadingBlockStart(TEXT, starts, 11, 7)).toEqual({ line: 9, character: 2 });
  });
  it('is none across a blank line, or for a symbol with nothing above', () => {
    expect(leadingBlockStart(TEXT, starts, 14, 11)).toBeUndefined();
    expect(leadingBlockStart(TEXT, starts, 1, 0)).toBeUndefined();
  });
  it("never reaches into the previous sibling's range", () => {
    expect(leadingBlockStart(TEXT, starts, 7, 4)).toEqual({ line: 5, character: 2 });
    expect(leadingBlockStart(TEXT, starts, 7, 6)).toBeUndefined();
  });
});

describe('lineStarts and offsetIn', () => {
  it('count \\n, \\r\\n and \\r, and clamp to the line', () => {
    const t = 'ab\r\ncd\ref\ngh';
    const s = lineStarts(t);
    expect(s).toEqual([0, 4, 7, 10]);
    expect(offsetIn(t, s, 1, 1)).toBe(5);
    expect(offsetIn(t, s, 0, 99)).toBe(2);
    expect(offsetIn(t, s, 9, 0)).toBe(t.length);
  });
});
