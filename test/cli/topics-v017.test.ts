// The v0.1.7 commands come from the spec like every other: positionals in `required` order, booleans as
// flags, and `FILE:LINE[:COL]` (1-based, as text output prints positions) for a file whose line and
// character are optional (editor/open).
import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../../cli/src/args';
import { CMDS } from './spec';

function params(argv: string[]): Record<string, unknown> {
  const inv = parseArgs(argv, CMDS);
  if (inv.kind !== 'topic') throw new Error(`not a topic invocation: ${inv.kind}`);
  return inv.params;
}

describe('v0.1.7 commands', () => {
  it('hover, typeDefinition, implementation take FILE LINE CHARACTER', () => {
    expect(params(['hover', 'src/a.ts', '4', '10'])).toEqual({ filePath: 'src/a.ts', line: 4, character: 10 });
    expect(params(['typeDefinition', 'a.ts', '1', '2'])).toEqual({ filePath: 'a.ts', line: 1, character: 2 });
    expect(params(['implementation', 'a.ts', '1', '2'])).toEqual({ filePath: 'a.ts', line: 1, character: 2 });
  });

  it('rename takes FILE LINE CHARACTER NEW_NAME and --dry-run', () => {
    expect(params(['rename', 'a.ts', '3', '16', 'sum', '--dry-run'])).toEqual({
      filePath: 'a.ts',
      line: 3,
      character: 16,
      newName: 'sum',
      dryRun: true,
    });
    expect(params(['edit', 'rename', 'a.ts', '3', '16', 'sum'])).toEqual({
      filePath: 'a.ts',
      line: 3,
      character: 16,
      newName: 'sum',
    });
  });

  it('FILE:LINE:COL (1-based, as text output prints it) stands for FILE LINE CHARACTER', () => {
    expect(params(['hover', 'src/a.ts:5:11'])).toEqual({ filePath: 'src/a.ts', line: 4, character: 10 });
    expect(params(['definition', 'C:/w/a.ts:1:1'])).toEqual({ filePath: 'C:/w/a.ts', line: 0, character: 0 });
    expect(params(['rename', 'a.ts:4:17', 'sum', '--dry-run'])).toEqual({
      filePath: 'a.ts',
      line: 3,
      character: 16,
      newName: 'sum',
      dryRun: true,
    });
    // Only when exactly LINE and CHARACTER are missing: a name with colons stays a name.
    expect(params(['hover', 'a.ts:5:11', '1', '2'])).toEqual({ filePath: 'a.ts:5:11', line: 1, character: 2 });
    expect(() => params(['hover', 'a.ts:0:3'])).toThrow(/1 or more/);
    expect(() => params(['hover', 'a.ts:5'])).toThrow(/^a\.ts:5 has a line but no column/); // not a name path
  });

  it('context takes nothing; open takes FILE[:LINE[:COL]], 1-based', () => {
    expect(params(['context'])).toEqual({});
    expect(params(['open', 'src/a.ts'])).toEqual({ filePath: 'src/a.ts' });
    expect(params(['open', 'src/a.ts:12'])).toEqual({ filePath: 'src/a.ts', line: 11 });
    expect(params(['open', 'src/a.ts:12:5', '--preserve-focus'])).toEqual({
      filePath: 'src/a.ts',
      line: 11,
      character: 4,
      preserveFocus: true,
    });
    expect(params(['open', 'C:/w/a.ts:1:1'])).toEqual({ filePath: 'C:/w/a.ts', line: 0, character: 0 });
    expect(params(['open', 'a.ts', '--line', '3'])).toEqual({ filePath: 'a.ts', line: 3 });
    expect(() => params(['open', 'a.ts:0'])).toThrow(UsageError);
    expect(() => params(['open', 'a.ts:2', '--line', '3'])).toThrow(/carries a position/);
  });
});
