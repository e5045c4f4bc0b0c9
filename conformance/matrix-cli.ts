// `idea-conformance matrix <report.json>… [--markdown <file>] [--html <file>]`: JSON reports of several
// servers or builds as one table (lib/matrix.ts, reporters/matrix.ts).
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { buildMatrix, type Matrix, parseMatrixArg, readMatrixInput } from './lib/matrix';
import { clauseHrefFrom } from './reporters/html';
import { matrixToHtml, matrixToMarkdown } from './reporters/matrix';

/** Without --markdown or --html both are written here, beside the other reports' defaults. */
export const DEFAULT_MATRIX_FILES = { markdown: 'matrix.md', html: 'matrix.html' } as const;

/** Writes the matrix where asked; returns the files written. */
export function writeMatrix(m: Matrix, out: { markdown?: string; html?: string }): string[] {
  const written: string[] = [];
  if (out.markdown) {
    mkdirSync(dirname(out.markdown), { recursive: true });
    writeFileSync(out.markdown, matrixToMarkdown(m));
    written.push(out.markdown);
  }
  if (out.html) {
    mkdirSync(dirname(out.html), { recursive: true });
    writeFileSync(out.html, matrixToHtml(m, { clauseHref: clauseHrefFrom(out.html) }));
    written.push(out.html);
  }
  return written;
}

export function matrixCli(argv: string[]): number {
  let values: { markdown?: string; html?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { markdown: { type: 'string' }, html: { type: 'string' } },
    }));
  } catch (e) {
    process.stderr.write(`idea-conformance matrix: ${(e as Error).message}\n`);
    return 2;
  }
  if (positionals.length === 0) {
    process.stderr.write('idea-conformance matrix: give one or more JSON reports (path or name=path)\n');
    return 2;
  }
  const isFile = (p: string) => existsSync(p) && statSync(p).isFile();
  let m: Matrix;
  try {
    m = buildMatrix(
      positionals.map((a) => parseMatrixArg(a, isFile)).map(({ file, name }) => readMatrixInput(file, name)),
    );
  } catch (e) {
    process.stderr.write(`idea-conformance matrix: ${(e as Error).message}\n`);
    return 2;
  }
  const out = values.markdown || values.html ? values : DEFAULT_MATRIX_FILES;
  for (const f of writeMatrix(m, out)) process.stderr.write(`matrix: ${f}\n`);
  return 0;
}
