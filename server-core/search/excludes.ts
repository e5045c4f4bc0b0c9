// VS Code's exclude settings (`files.exclude`, `search.exclude`) are objects glob → true | false |
// { when }. Only unconditional `true` entries become ripgrep `!glob` overrides; `when` clauses
// (sibling-file conditions) cannot be expressed in rg and are left out.
export function enabledGlobs(...settings: unknown[]): string[] {
  const out = new Set<string>();
  for (const s of settings) {
    if (!s || typeof s !== 'object') continue;
    for (const [glob, on] of Object.entries(s as Record<string, unknown>)) if (on === true && glob) out.add(glob);
  }
  return [...out];
}
