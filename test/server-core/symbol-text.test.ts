// clause T45's text rules (server-core/symbol-text.ts): a signature starts past the whole lines of
// comments, decorators and attributes its range begins with and stops at the first `{` outside
// parentheses, brackets, angle brackets and quotes or at the first line break outside them, folded and
// bounded; a body starts at the block of comment, decorator and attribute lines directly above.
import { describe, expect, it } from 'vitest';
import {
  leadingBlockStart,
  lineStarts,
  MAX_SIGNATURE,
  offsetIn,
  positionAt,
  signatureAt,
} from '../../server-core/symbol-text';

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
    // Angle brackets: a `{` in a type argument or a default does not end it; `=>` closes none.
    ['export function make<T = { a: number }>(value: T): T {', 'export function make<T = { a: number }>(value: T): T'],
    ['class Box<K extends { id: string }> extends Base<K> {', 'class Box<K extends { id: string }> extends Base<K>'],
    ['let f: Array<(x: { a: 1 }) => void> = [];\nnext', 'let f: Array<(x: { a: 1 }) => void> = [];'],
    ['type M = Map<\n  string,\n  { a: number }\n>;\nnext', 'type M = Map< string, { a: number } >;'],
    ['add = <T,>(a: T): T => {\n  return a;\n}', 'add = <T,>(a: T): T =>'],
    ['Row = <T,>(p: { item: T }) => <li>{String(p.item)}</li>;', 'Row = <T,>(p: { item: T }) => <li>'],
    ['fn boxed() -> Box<dyn Fn(i32) -> i32> {', 'fn boxed() -> Box<dyn Fn(i32) -> i32>'],
    // A comparison is no angle bracket: `<=`, `<<`, and a `<` left open inside parentheses.
    ['small = a <= b\nnext', 'small = a <= b'],
    ['shifted = a << 2\nnext', 'shifted = a << 2'],
    ['function f(x = a < b) {\n  return x;\n}', 'function f(x = a < b)'],
    // Past whole lines of comments, decorators and attributes the range begins with.
    ["@tag('box')\nexport class Box {", 'export class Box'],
    ['@Component({\n  selector: "{x}",\n})\n@sealed\nexport class C {', 'export class C'],
    ['/** Doc. */\n  @log\n  get id(): string {', 'get id(): string'],
    ['/**\n * Doc.\n */\nfn main() {', 'fn main()'],
    ['#[derive(Debug)]\n#[cfg(test)] // why\npub struct S {', 'pub struct S'],
    ['@property\ndef area(self) -> float:\n    return 1', 'def area(self) -> float:'],
    // A decorator sharing its line with the declaration stays; a private field is no attribute.
    ['@Input() name: string;\nnext', '@Input() name: string;'],
    ['#count = 0;\nnext', '#count = 0;'],
    ['// only a comment', '// only a comment'],
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
    // positionAt is offsetIn's inverse.
    for (const [line, character] of [
      [0, 0],
      [0, 2],
      [1, 1],
      [2, 0],
      [3, 2],
    ] as const)
      expect(positionAt(s, offsetIn(t, s, line, character))).toEqual({ line, character });
  });
});
