// Markdown the core's answers carry (hover sections).

/** A fenced code block in `language`, its fence longer than any run of backticks in the code, so the block cannot be closed early. */
export function fencedCode(language: string, code: string): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language.replace(/[^\w+#.-]/g, '')}\n${code}\n${fence}`;
}
