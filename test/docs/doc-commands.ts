// The command lines the docs show, as a reader would copy them: every line of a shell code block in a
// tracked Markdown file (outside generated/ and spec/) that starts with one of our bins, directly or
// through npx, continuation lines joined. Pure: reading and shaping only (commands.test.ts runs them).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const BINS = ['idea', 'idea-mcp', 'idea-server', 'idea-conformance', 'idea-spec'] as const;
export type Bin = (typeof BINS)[number];

/** npx spellings of a bin (the package name runs its one bin). */
const NPX: Readonly<Record<string, Bin>> = {
  '@idea-kit/conformance': 'idea-conformance',
  '@idea-kit/spec-tools': 'idea-spec',
  '@idea-kit/server': 'idea-server',
  '@idea-kit/cli': 'idea',
  '@idea-kit/mcp': 'idea-mcp',
};

export interface DocCommand {
  /** "cli/README.md:14". */
  where: string;
  /** The line as written, comment and prompt removed. */
  text: string;
  /** What runs: `text` with npx spellings replaced by the bin, one command per entry (`a ; b`). */
  commands: { bin: Bin; line: string }[];
}

const SHELL_BLOCKS = new Set(['bash', 'sh', 'shell', 'console', '']);

/** A trailing `# comment` outside quotes removed. */
export function stripComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

/** `text` split on `;` and `&&` outside quotes; the part after a pipe dropped (jq, head: not ours). */
function split(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      cur += c;
    } else if (c === ';' || (c === '&' && text[i + 1] === '&')) {
      out.push(cur);
      cur = '';
      if (c === '&') i++;
    } else if (c === '|' && text[i + 1] !== '|') {
      out.push(cur);
      cur = '';
      while (i < text.length && text[i] !== ';') i++; // the rest of this command is the pipe's
    } else cur += c;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter(Boolean);
}

/** The bin a command starts with (npx spellings included) and the line with the bin's own name first. */
export function asBinCommand(command: string): { bin: Bin; line: string } | undefined {
  const m = /^npx\s+(?:-y\s+|--yes\s+)?(\S+)(.*)$/.exec(command);
  const [head, rest] = m
    ? [m[1]!, m[2]!]
    : [command.split(/\s/, 1)[0]!, command.slice(command.split(/\s/, 1)[0]!.length)];
  const bin = (BINS as readonly string[]).includes(head) ? (head as Bin) : NPX[head];
  return bin ? { bin, line: `${bin}${rest}` } : undefined;
}

export function docCommandsOf(file: string, text: string): DocCommand[] {
  const out: DocCommand[] = [];
  let block: string | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const fence = /^\s*```\s*(\w*)/.exec(lines[i]!);
    if (fence) {
      block = block === undefined ? fence[1]! : undefined;
      continue;
    }
    if (block === undefined || !SHELL_BLOCKS.has(block)) continue;
    const start = i;
    let line = lines[i]!.trim().replace(/^\$\s+/, '');
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1).trimEnd()} ${lines[++i]!.trim()}`;
    line = stripComment(line);
    const commands = split(line).flatMap((c) => asBinCommand(c) ?? []);
    if (commands.length > 0 && asBinCommand(split(line)[0]!))
      out.push({ where: `${file}:${start + 1}`, text: line, commands });
  }
  return out;
}

/** Every documented command line of the repository at `root`. */
export function docCommands(root: string): DocCommand[] {
  const files = execFileSync('git', ['ls-files', '*.md'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !/^(generated|spec)\//.test(f) && !f.endsWith('CHANGELOG.md') && existsSync(join(root, f)));
  return files.flatMap((f) => docCommandsOf(f, readFileSync(join(root, f), 'utf8')));
}
