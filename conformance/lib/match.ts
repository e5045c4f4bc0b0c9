// Match rules: expected values are JSON where an object whose keys all start with "$" is a rule.
// Objects match as subsets (extra actual fields allowed, as the spec's compatibility policy says);
// arrays match in order with the same length unless a rule says otherwise.
//
//   {"$type": "string"}            type only ("string","number","integer","boolean","null","array","object"; or a list)
//   {"$match": "^[0-9a-f]{40}$"}   regex on a string (optional "$flags")
//   {"$any": true}                 any value (the key must be present)
//   {"$absent": true}              in an object: the key must not be present
//   {"$oneOf": [a, b]}             any of the alternatives
//   {"$unordered": [...]}          same elements, any order
//   {"$contains": [...]}           these elements in any order, others allowed
//   {"$each": rule}                every element matches (combine with $length / $minLength / $maxLength)
//   {"$length": n} {"$minLength": n} {"$maxLength": n}   array or string length
//   {"$exact": {...}}              object without extra fields
//   {"$gte": n} {"$lte": n}        number range
//   {"$lines": ["a", "b"]}         a string whose lines contain these lines, in this order
//   {"$subsequences": [[a, b], …]}  an array where each group's elements appear in that relative order
//                                  (e.g. a parent symbol before its members; combine with $unordered)
//
// match() also returns two "views" used to print a unified diff: where a rule matched, both views
// show the actual value, so the diff shows exactly the places that differ.
import { createTwoFilesPatch } from 'diff';

export interface MatchOutcome {
  ok: boolean;
  /** Human-readable reasons with JSON paths. */
  problems: string[];
  expectedView: unknown;
  actualView: unknown;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function isRule(v: unknown): v is Obj {
  if (!isObj(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

const RULE_KEYS = new Set([
  '$type',
  '$match',
  '$flags',
  '$any',
  '$absent',
  '$oneOf',
  '$unordered',
  '$contains',
  '$each',
  '$length',
  '$minLength',
  '$maxLength',
  '$exact',
  '$gte',
  '$lte',
  '$lines',
  '$subsequences',
]);

/** Rule keys that are not known (a typo in a fixture must not silently match everything). */
export function unknownRuleKeys(expected: unknown, path = '$'): string[] {
  const out: string[] = [];
  if (Array.isArray(expected)) {
    for (const [i, e] of expected.entries()) out.push(...unknownRuleKeys(e, `${path}[${i}]`));
  } else if (isObj(expected)) {
    for (const [k, v] of Object.entries(expected)) {
      if (k.startsWith('$') && !RULE_KEYS.has(k)) out.push(`${path}.${k}`);
      out.push(...unknownRuleKeys(v, k.startsWith('$') ? path : `${path}.${k}`));
    }
  }
  return out;
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function hasType(v: unknown, t: string): boolean {
  if (t === 'integer') return Number.isInteger(v);
  return typeOf(v) === t;
}

/** Expected value with rules replaced by short descriptions (for the expected side of a diff). */
function describe(expected: unknown): unknown {
  if (Array.isArray(expected)) return expected.map(describe);
  if (!isObj(expected)) return expected;
  if (!isRule(expected)) return Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, describe(v)]));
  const e = expected;
  if ('$unordered' in e) return (e.$unordered as unknown[]).map(describe);
  if ('$contains' in e) return [...(e.$contains as unknown[]).map(describe), '<…others allowed>'];
  if ('$exact' in e) return describe(e.$exact);
  if ('$oneOf' in e) return `<one of ${JSON.stringify(e.$oneOf)}>`;
  const parts: string[] = [];
  if ('$type' in e) parts.push(`type ${[e.$type].flat().join('|')}`);
  if ('$match' in e) parts.push(`matching /${String(e.$match)}/${(e.$flags as string) ?? ''}`);
  if ('$any' in e) parts.push('any value');
  if ('$absent' in e) parts.push('absent');
  if ('$each' in e) parts.push(`each ${JSON.stringify(describe(e.$each))}`);
  if ('$length' in e) parts.push(`length ${String(e.$length)}`);
  if ('$minLength' in e) parts.push(`length ≥ ${String(e.$minLength)}`);
  if ('$maxLength' in e) parts.push(`length ≤ ${String(e.$maxLength)}`);
  if ('$gte' in e) parts.push(`≥ ${String(e.$gte)}`);
  if ('$lte' in e) parts.push(`≤ ${String(e.$lte)}`);
  if ('$lines' in e) parts.push(`lines ${JSON.stringify(e.$lines)} in order`);
  if ('$subsequences' in e) parts.push(`in the orders ${JSON.stringify(e.$subsequences)}`);
  return `<${parts.join(', ')}>`;
}

function lengthOf(v: unknown): number | undefined {
  return Array.isArray(v) || typeof v === 'string' ? v.length : undefined;
}

/** Pairs expected elements with distinct actual elements (greedy, in expected order). */
function pairUp(expected: unknown[], actual: unknown[]): { pairs: (number | -1)[]; used: Set<number> } {
  const used = new Set<number>();
  const pairs = expected.map((e) => {
    for (let i = 0; i < actual.length; i++) {
      if (!used.has(i) && matchAt(e, actual[i], '$').ok) {
        used.add(i);
        return i;
      }
    }
    return -1;
  });
  return { pairs, used };
}

function matchRule(e: Obj, act: unknown, path: string): MatchOutcome {
  const problems: string[] = [];
  let expectedView: unknown = act;
  let actualView: unknown = act;
  const fail = (msg: string) => problems.push(`${path}: ${msg}`);

  if ('$type' in e) {
    const types = [e.$type].flat() as string[];
    if (!types.some((t) => hasType(act, t))) fail(`expected type ${types.join('|')}, got ${typeOf(act)}`);
  }
  if ('$match' in e) {
    if (typeof act !== 'string') fail(`expected a string matching /${String(e.$match)}/, got ${typeOf(act)}`);
    else if (!new RegExp(String(e.$match), (e.$flags as string) ?? '').test(act))
      fail(`${JSON.stringify(act)} does not match /${String(e.$match)}/`);
  }
  if ('$oneOf' in e) {
    const alts = e.$oneOf as unknown[];
    if (!alts.some((a) => matchAt(a, act, path).ok)) fail(`matches none of ${JSON.stringify(alts)}`);
  }
  if ('$gte' in e && !(typeof act === 'number' && act >= (e.$gte as number)))
    fail(`expected a number ≥ ${String(e.$gte)}, got ${JSON.stringify(act)}`);
  if ('$lte' in e && !(typeof act === 'number' && act <= (e.$lte as number)))
    fail(`expected a number ≤ ${String(e.$lte)}, got ${JSON.stringify(act)}`);
  const len = lengthOf(act);
  if ('$length' in e && len !== e.$length) fail(`expected length ${String(e.$length)}, got ${len ?? typeOf(act)}`);
  if ('$minLength' in e && !(len !== undefined && len >= (e.$minLength as number)))
    fail(`expected length ≥ ${String(e.$minLength)}, got ${len ?? typeOf(act)}`);
  if ('$maxLength' in e && !(len !== undefined && len <= (e.$maxLength as number)))
    fail(`expected length ≤ ${String(e.$maxLength)}, got ${len ?? typeOf(act)}`);
  if ('$lines' in e) {
    if (typeof act !== 'string') fail(`expected text, got ${typeOf(act)}`);
    else {
      const lines = act.split(/\r?\n/);
      let from = 0;
      for (const want of e.$lines as string[]) {
        const at = lines.indexOf(want, from);
        if (at < 0) {
          fail(`line ${JSON.stringify(want)} not found${from > 0 ? ' after the previous expected line' : ''}`);
          break;
        }
        from = at + 1;
      }
      if (problems.length) expectedView = describe(e);
    }
  }
  if ('$exact' in e) {
    const inner = matchAt(e.$exact, act, path, true);
    problems.push(...inner.problems);
    expectedView = inner.expectedView;
    actualView = inner.actualView;
  }
  if ('$each' in e) {
    if (!Array.isArray(act)) fail(`expected an array, got ${typeOf(act)}`);
    else {
      const inner = act.map((a, i) => matchAt(e.$each, a, `${path}[${i}]`));
      for (const r of inner) problems.push(...r.problems);
      expectedView = inner.map((r) => r.expectedView);
      actualView = inner.map((r) => r.actualView);
    }
  }
  if ('$unordered' in e || '$contains' in e) {
    const exact = '$unordered' in e;
    const want = (exact ? e.$unordered : e.$contains) as unknown[];
    if (!Array.isArray(act)) fail(`expected an array, got ${typeOf(act)}`);
    else {
      const { pairs, used } = pairUp(want, act);
      const rest = act.filter((_, i) => !used.has(i));
      pairs.forEach((p, i) => {
        if (p < 0) fail(`no element matches expected[${i}] ${JSON.stringify(describe(want[i]))}`);
      });
      if (exact && rest.length > 0 && want.length !== act.length)
        fail(`expected ${want.length} elements, got ${act.length}`);
      expectedView = [...pairs.map((p, i) => (p >= 0 ? act[p] : describe(want[i]))), ...(exact ? [] : rest)];
      actualView = [...pairs.filter((p) => p >= 0).map((p) => act[p]), ...rest];
    }
  }
  if ('$subsequences' in e && Array.isArray(act)) {
    for (const group of e.$subsequences as unknown[][]) {
      let from = 0;
      for (const want of group) {
        let at = -1;
        for (let i = from; i < act.length; i++)
          if (matchAt(want, act[i], path).ok) {
            at = i;
            break;
          }
        if (at < 0) {
          fail(
            `${JSON.stringify(describe(want))} does not appear after ${JSON.stringify(describe(group[0]))} (expected order ${JSON.stringify(group.map(describe))})`,
          );
          break;
        }
        from = at + 1;
      }
    }
  } else if ('$subsequences' in e) fail(`expected an array, got ${typeOf(act)}`);
  if ('$absent' in e) fail('expected to be absent');
  if (problems.length && expectedView === act && !('$each' in e) && !('$exact' in e)) expectedView = describe(e);
  return { ok: problems.length === 0, problems, expectedView, actualView };
}

function matchAt(exp: unknown, act: unknown, path: string, exactObject = false): MatchOutcome {
  if (isRule(exp)) return matchRule(exp, act, path);
  if (Array.isArray(exp)) {
    if (!Array.isArray(act))
      return {
        ok: false,
        problems: [`${path}: expected an array, got ${typeOf(act)}`],
        expectedView: describe(exp),
        actualView: act,
      };
    const problems: string[] = [];
    const ev: unknown[] = [];
    const av: unknown[] = [];
    const n = Math.max(exp.length, act.length);
    for (let i = 0; i < n; i++) {
      if (i >= exp.length) {
        av.push(act[i]);
        continue;
      }
      if (i >= act.length) {
        ev.push(describe(exp[i]));
        continue;
      }
      const r = matchAt(exp[i], act[i], `${path}[${i}]`);
      problems.push(...r.problems);
      ev.push(r.expectedView);
      av.push(r.actualView);
    }
    if (exp.length !== act.length) problems.push(`${path}: expected ${exp.length} elements, got ${act.length}`);
    return { ok: problems.length === 0, problems, expectedView: ev, actualView: av };
  }
  if (isObj(exp)) {
    if (!isObj(act))
      return {
        ok: false,
        problems: [`${path}: expected an object, got ${typeOf(act)}`],
        expectedView: describe(exp),
        actualView: act,
      };
    const problems: string[] = [];
    const ev: Obj = {};
    const av: Obj = {};
    for (const [k, e] of Object.entries(exp)) {
      const p = `${path}.${k}`;
      const present = Object.hasOwn(act, k);
      if (isRule(e) && '$absent' in e) {
        if (present) {
          problems.push(`${p}: expected to be absent`);
          ev[k] = '<absent>';
          av[k] = act[k];
        }
        continue;
      }
      if (!present) {
        problems.push(`${p}: missing`);
        ev[k] = describe(e);
        continue;
      }
      const r = matchAt(e, act[k], p);
      problems.push(...r.problems);
      ev[k] = r.expectedView;
      av[k] = r.actualView;
    }
    if (exactObject) {
      for (const k of Object.keys(act)) {
        if (!(k in exp)) {
          problems.push(`${path}.${k}: unexpected field`);
          av[k] = act[k];
        }
      }
    }
    return { ok: problems.length === 0, problems, expectedView: ev, actualView: av };
  }
  const ok = Object.is(exp, act) || (typeof exp === 'number' && exp === act);
  return {
    ok,
    problems: ok ? [] : [`${path}: expected ${JSON.stringify(exp)}, got ${JSON.stringify(act)}`],
    expectedView: exp,
    actualView: act,
  };
}

export function match(expected: unknown, actual: unknown): MatchOutcome {
  return matchAt(expected, actual, '$');
}

/** Unified diff (npm `diff`) of the two views, with the problem list on top. */
export function renderMismatch(outcome: MatchOutcome, label = 'response'): string {
  const a = JSON.stringify(outcome.expectedView, null, 2) ?? 'undefined';
  const b = JSON.stringify(outcome.actualView, null, 2) ?? 'undefined';
  const patch = createTwoFilesPatch(`expected ${label}`, `actual ${label}`, `${a}\n`, `${b}\n`, undefined, undefined, {
    context: 3,
  });
  const body = patch.split('\n').slice(2).join('\n'); // drop the "Index:"/"====" header lines
  return `${outcome.problems.map((p) => `  • ${p}`).join('\n')}\n${body}`.trimEnd();
}
