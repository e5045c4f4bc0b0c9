// VS Code's exclude settings (`files.exclude`, `search.exclude`) are objects glob → true | false |
// { when }. Only unconditional `true` entries become ripgrep `!glob` overrides; `when` clauses
// (sibling-file conditions) cannot be expressed in rg and are left out.
import { type CompiledGlob, compileGlob } from './glob';
import { anchorGlob } from './ripgrep';

export function enabledGlobs(...settings: unknown[]): string[] {
  const out = new Set<string>();
  for (const s of settings) {
    if (!s || typeof s !== 'object') continue;
    for (const [glob, on] of Object.entries(s as Record<string, unknown>)) if (on === true && glob) out.add(glob);
  }
  return [...out];
}

/**
 * Exclude globs compiled as the JavaScript search compiles them (anchored as VS Code reads them, then
 * glob.ts's automaton: no backtracking, so a hostile setting cannot stall whoever matches it). Settings
 * are workspace input: a malformed glob matches nothing instead of throwing.
 */
export function compileExcludes(globs: readonly string[]): CompiledGlob[] {
  const out: CompiledGlob[] = [];
  for (const g of globs) {
    try {
      out.push(compileGlob(anchorGlob(g)));
    } catch {
      // malformed (unclosed brace or class, too many alternatives): matches nothing
    }
  }
  return out;
}

/**
 * True when `rel` ('/'-separated, relative to the folder) or one of its parent folders matches one of
 * `globs`, as rg never descends into an excluded folder. A folders-only glob (trailing "/") is tried on
 * the parents only: whether `rel` itself is a folder is not known (it may be gone).
 */
export function excludedBy(rel: string, globs: readonly CompiledGlob[]): boolean {
  if (globs.length === 0) return false;
  const parts = rel.split('/');
  for (let n = 1; n <= parts.length; n++) {
    const prefix = parts.slice(0, n).join('/');
    if (globs.some((g) => (n < parts.length || !g.dirOnly) && g.matches(prefix))) return true;
  }
  return false;
}
