// The solution fixture (v0.1.8 on): a folder whose tsconfig.json is solution-style ("files": [] with
// references to a build project and a tests project), the layout where a language server that loaded only
// the project of the file asked about misses the tests (clause T47), and symbols for name paths (T43–T46,
// T50, T51): overloads, names with "/" and "[", a class in a namespace, a unicode name, recursion, a
// multi-line signature and comment blocks above declarations. Untracked, under solution/ only, and nothing
// here uses src/'s symbols or any text another case searches for (needle, haystack, totalArea…); no .ts
// file name has an "a" (the findFiles cases ask for "a" in **/*.ts): the v0.1.6/v0.1.7 cases see no change.
import type { FileSet } from './file-set';

const solutionTsconfig = `{
  "files": [],
  "references": [{ "path": "./tsconfig.build.json" }, { "path": "./tsconfig.test.json" }]
}
`;

const compilerOptions = `"target": "ES2020",
    "module": "commonjs",
    "strict": true,
    "noUnusedLocals": true`;

const buildTsconfig = `{
  "compilerOptions": {
    ${compilerOptions},
    "composite": true,
    "outDir": "out/build",
    "rootDir": "src"
  },
  "include": ["src"]
}
`;

const testTsconfig = `{
  "compilerOptions": {
    ${compilerOptions},
    "noEmit": true
  },
  "include": ["test"]
}
`;

/** solution/src/ledger.ts (0-based lines: test/conformance/workspace.test.ts checks the ones cases use). */
const ledgerTs = `/** Amounts and their running balance: the build project of the solution fixture. */
export class Ledger {
  private readonly amounts: number[] = [];
  readonly notes: string[] = [];
  readonly label = '{ledger}';

  /** Records an amount. */
  record(amount: number): void;
  /** Records an amount with a note. */
  record(amount: number, note: string): void;
  record(amount: number, note?: string): void {
    this.amounts.push(amount);
    if (note !== undefined) this.notes.push(note);
  }

  // Names with a slash and with brackets: escaped in name paths.
  'in/out'(): number {
    return this.amounts.length;
  }

  '[total]'(): number {
    return this.total();
  }

  total(): number {
    return sumOf(this.amounts);
  }

  balance(): number {
    return this.total() - this.notes.length;
  }
}

/** Sums values one at a time: a call hierarchy's loop. */
export function sumOf(values: readonly number[], from = 0): number {
  return from >= values.length ? 0 : values[from] + sumOf(values, from + 1);
}

export function transfer(
  from: Ledger,
  to: Ledger,
  amount: number,
): void {
  from.record(-amount);
  to.record(amount, 'transfer');
}

export const factor = 2
  * 3;
// Scales an amount by the factor.
// The report uses it.
export function scaled(amount: number): number {
  return amount * factor;
}

// Not part of parse's body: a blank line follows.

/**
 * Parses an amount.
 */
export function parse(text: string): number;
export function parse(text: string, radix: number): number;
export function parse(text: string, radix = 10): number {
  return Number.parseInt(text, radix);
}

export namespace Audit {
  /** One checked entry. */
  export class Entry {
    constructor(readonly amount: number) {}

    describe(): string {
      return \`entry of \${this.amount}\`;
    }
  }
}
`;

/** solution/src/report.ts: uses the ledger inside the build project. */
const reportTs = `import { Ledger, scaled, sumOf } from './ledger';

/** One line about a ledger. */
export function summarize(ledger: Ledger): string {
  ledger.record(0);
  return \`\${ledger.balance()} over \${ledger['in/out']()} entries\`;
}

export function grüße(ledger: Ledger): number {
  return scaled(sumOf([ledger.total()]));
}
`;

/** solution/test/ledger.test.ts: the tests project, which only a search of every project finds. */
const ledgerTestTs = `import { Ledger, sumOf } from '../src/ledger';
import { summarize } from '../src/report';

export function checkTotals(): boolean {
  const ledger = new Ledger();
  ledger.record(2);
  ledger.record(3, 'second');
  return ledger.total() === sumOf([2, 3]) && summarize(ledger).length > 0;
}

new Ledger().record(1);
`;

/** The solution fixture's files, laid over the fresh workspace untracked (content.ts's overlay). */
export const solutionFiles: FileSet = {
  'solution/tsconfig.json': solutionTsconfig,
  'solution/tsconfig.build.json': buildTsconfig,
  'solution/tsconfig.test.json': testTsconfig,
  'solution/src/ledger.ts': ledgerTs,
  'solution/src/report.ts': reportTs,
  'solution/test/ledger.test.ts': ledgerTestTs,
};
