// Reading GitHub workflow and action files as text, for the tests that check them: the shell scripts
// of their `run:` steps. YAML is not parsed: the files are ours and keep `run: |` blocks indented.
import { escapeRegExp } from '../../server-core/search/regex-core';

/** Every `run:` script of a workflow or action file (block or one-line). */
export function runScripts(yml: string): string[] {
  return [...yml.matchAll(/^(\s*)(?:- )?run: \|\n((?:\1\s+.*\n|\s*\n)*)|^\s*(?:- )?run: (?!\|)(.*)$/gm)].map(
    (m) => m[2] ?? m[3] ?? '',
  );
}

/** The `run: |` script of the step named `name`, dedented. */
export function stepScript(yml: string, name: string): string {
  const m = new RegExp(
    `^(\\s*)- name: ${escapeRegExp(name)}\\n(?:\\1  (?!run:).*\\n)*\\1  run: \\|\\n((?:\\1    .*\\n|\\s*\\n)*)`,
    'm',
  ).exec(yml);
  if (!m) throw new Error(`no step "${name}" with a run: | script`);
  const lines = m[2]!.split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return lines.map((l) => l.slice(indent)).join('\n');
}
