// ripgrep's `--glob` patterns in JavaScript, for the file walk that stands in for rg (file-walk.ts):
// gitignore-style globs matched against "/"-separated paths relative to the searched folder.
// - a glob with a "/" before its end (after anchorGlob, nearly all) is anchored at the folder; one
//   without matches the last path component at any depth; a trailing "/" matches folders only;
// - `*` and `?` never cross "/", `**/` is any number of folders (none included), a trailing `/**`
//   everything inside, `[...]` / `[!...]` a character class, `{a,b}` alternatives, `\x` a literal x.
// Matching simulates the pattern as an automaton over the path (no backtracking), so a hostile glob
// costs at most (path length × glob length) per alternative, never exponential time.
import { invalidRequest } from '../errors';

type Token =
  | { t: 'char'; c: string }
  | { t: 'any' } // ?
  | { t: 'star' } // * (within one component)
  | { t: 'all' } // ** not beside a slash: anything, "/" included
  | { t: 'dirs' } // **/ : "" or anything ending in "/"
  | { t: 'class'; negated: boolean; ranges: [string, string][] };

/** Most alternatives one glob's braces expand to (rg has no such bound; no real exclude comes near it). */
export const MAX_GLOB_ALTERNATIVES = 256;

export interface CompiledGlob {
  /** Folders only (a trailing "/"). */
  dirOnly: boolean;
  matches(relPath: string): boolean;
}

/** Expands top-level and nested `{a,b}` into plain alternatives (escapes kept). */
function expandBraces(glob: string, out: string[]): void {
  let depth = 0;
  let open = -1;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '{') {
      if (depth++ === 0) open = i;
    } else if (c === '}' && depth > 0 && --depth === 0) {
      const inner = glob.slice(open + 1, i);
      const parts: string[] = [];
      let d = 0;
      let start = 0;
      for (let j = 0; j < inner.length; j++) {
        const x = inner[j];
        if (x === '\\') j++;
        else if (x === '{') d++;
        else if (x === '}') d--;
        else if (x === ',' && d === 0) {
          parts.push(inner.slice(start, j));
          start = j + 1;
        }
      }
      parts.push(inner.slice(start));
      const head = glob.slice(0, open);
      const tail = glob.slice(i + 1);
      for (const p of parts) {
        expandBraces(head + p + tail, out);
        if (out.length > MAX_GLOB_ALTERNATIVES)
          throw invalidRequest(`invalid glob: ${glob.slice(0, 200)} expands to over ${MAX_GLOB_ALTERNATIVES} patterns`);
      }
      return;
    }
  }
  if (depth > 0) throw invalidRequest(`invalid glob: unclosed '{' in ${glob.slice(0, 200)}`);
  out.push(glob);
}

function tokenize(glob: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\') {
      i++;
      if (i < glob.length) out.push({ t: 'char', c: glob[i]! });
    } else if (c === '?') out.push({ t: 'any' });
    else if (c === '*') {
      if (glob[i + 1] !== '*') {
        out.push({ t: 'star' });
        continue;
      }
      while (glob[i + 1] === '*') i++;
      const atStart = i - 1 === 0 || glob[i - 2] === '/';
      if (atStart && glob[i + 1] === '/') {
        out.push({ t: 'dirs' });
        i++;
      } else if (atStart && i + 1 === glob.length) out.push({ t: 'all' });
      else out.push({ t: 'star' }); // "a**b": gitignore reads it as "*"
    } else if (c === '[') {
      const end = classEnd(glob, i);
      if (end < 0) throw invalidRequest(`invalid glob: unclosed '[' in ${glob.slice(0, 200)}`);
      let body = glob.slice(i + 1, end);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      const ranges: [string, string][] = [];
      for (let j = 0; j < body.length; j++) {
        let a = body[j]!;
        if (a === '\\' && j + 1 < body.length) a = body[++j]!;
        if (body[j + 1] === '-' && j + 2 < body.length) {
          let b = body[j + 2]!;
          j += 2;
          if (b === '\\' && j + 1 < body.length) b = body[++j]!;
          ranges.push([a, b]);
        } else ranges.push([a, a]);
      }
      out.push({ t: 'class', negated, ranges });
      i = end;
    } else out.push({ t: 'char', c });
  }
  return out;
}

/** Index of the `]` closing the class opened at `open` (a `]` right after `[` or `[!` is literal), else -1. */
function classEnd(glob: string, open: number): number {
  let j = open + 1;
  if (glob[j] === '!' || glob[j] === '^') j++;
  if (glob[j] === ']') j++;
  for (; j < glob.length; j++) {
    if (glob[j] === '\\') j++;
    else if (glob[j] === ']') return j;
  }
  return -1;
}

function classHas(tok: Extract<Token, { t: 'class' }>, c: string): boolean {
  if (c === '/') return false;
  const inside = tok.ranges.some(([a, b]) => c >= a && c <= b);
  return tok.negated ? !inside : inside;
}

/**
 * The automaton: state j = "tokens before j matched"; `star`/`all`/`dirs` may match nothing. A `dirs`
 * token has a second state, "inside a folder name" (`inside[j]`), from which only a "/" leads back to j:
 * a "**" before a "/" ends at the start or right after a "/", never inside a name (so "xa" is not in "**" "/a").
 */
function simulate(tokens: Token[], path: string): boolean {
  const m = tokens.length;
  let cur = new Uint8Array(m + 1);
  let next = new Uint8Array(m + 1);
  let curInside = new Uint8Array(m);
  let nextInside = new Uint8Array(m);
  const close = (s: Uint8Array) => {
    for (let j = 0; j < m; j++) {
      const t = tokens[j]!.t;
      if (s[j] && (t === 'star' || t === 'all' || t === 'dirs')) s[j + 1] = 1;
    }
  };
  cur[0] = 1;
  close(cur);
  for (const c of path) {
    next.fill(0);
    nextInside.fill(0);
    let any = false;
    for (let j = 0; j < m; j++) {
      if (curInside[j]) {
        if (c === '/') next[j] = 1;
        else nextInside[j] = 1;
      }
      if (!cur[j]) continue;
      const tok = tokens[j]!;
      switch (tok.t) {
        case 'char':
          if (tok.c === c) next[j + 1] = 1;
          break;
        case 'any':
          if (c !== '/') next[j + 1] = 1;
          break;
        case 'class':
          if (classHas(tok, c)) next[j + 1] = 1;
          break;
        case 'star':
          if (c !== '/') next[j] = 1;
          break;
        case 'all':
          next[j] = 1;
          break;
        case 'dirs':
          if (c === '/') next[j] = 1;
          else nextInside[j] = 1;
          break;
      }
    }
    for (let j = 0; j <= m; j++) if (next[j] || (j < m && nextInside[j])) any = true;
    if (!any) return false;
    close(next);
    [cur, next] = [next, cur];
    [curInside, nextInside] = [nextInside, curInside];
  }
  return cur[m] === 1;
}

/** The longest run of plain characters: consecutive `char` tokens match consecutive characters, so any match contains it. */
function longestLiteral(tokens: Token[]): string {
  let best = '';
  let run = '';
  for (const t of tokens) {
    if (t.t === 'char') {
      run += t.c;
      if (run.length > best.length) best = run;
    } else run = '';
  }
  return best;
}

/** Compiles one rg `--glob` pattern (without its `!`); INVALID_REQUEST for a malformed one, as rg refuses it. */
export function compileGlob(glob: string): CompiledGlob {
  let g = glob;
  const dirOnly = g.length > 1 && g.endsWith('/');
  if (dirOnly) g = g.slice(0, -1);
  // No "/": the last component at any depth, i.e. "**/" before it; otherwise anchored at the folder.
  if (!g.includes('/')) g = `**/${g}`;
  else if (g.startsWith('/')) g = g.slice(1);
  const alternatives: string[] = [];
  expandBraces(g, alternatives);
  const compiled = alternatives.map((a) => {
    const tokens = tokenize(a);
    return { tokens, literal: longestLiteral(tokens) };
  });
  // The literal first: most paths an exclude is tried on lack "node_modules" and are done in a substring search.
  return {
    dirOnly,
    matches: (relPath) => compiled.some((c) => relPath.includes(c.literal) && simulate(c.tokens, relPath)),
  };
}
