// Name paths and locators (0.1.8 on): inputs made from the symbols the server itself lists, judged by the
// spec. A symbol's own name path must match that symbol alone (T43: nav/findSymbol finds exactly it, a
// position topic resolves it); a suffix of it must match it among others (T43); a name path our parser
// (runtime/name-path.ts, the one parser) refuses must be INVALID_REQUEST whose message names the character
// it names (T43); namePath with line or character, or neither, is INVALID_REQUEST (T44). And every
// nav/findSymbol answer stays within its size budget (T46).
import fc from 'fast-check';
import { isObject } from '../../runtime/frames';
import { escapeName, NamePathError, parseNamePath } from '../../runtime/name-path';
import { type GenContext, type TopicModel, validArb } from './generate';
import type { FuzzInput, NamePathLabel } from './input';
import type { Answer, Problem } from './verdict';

export const FIND_SYMBOL = '/app/vscode/nav/findSymbol';
const SYMBOLS = '/app/vscode/nav/symbols';

/** What a generated name path is, for its oracle. */
export type { NamePathLabel };

/** A symbol of a file, by its own name path as the server gave it. */
export interface SymbolSample {
  /** Workspace-relative, "/"-separated. */
  filePath: string;
  namePath: string;
}

/** How many files it asks about, with symbols at most, top-level names per file, and symbols in all (a few dozen requests). */
const MAX_ASKED = 12;
const MAX_FILES = 6;
const MAX_TOP_LEVEL = 8;
const MAX_SAMPLES = 200;
const CODE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|py|go|rs|java|kt|c|cc|cpp|h|hpp|cs|rb|php|swift|lua|scala)$/;

/** A request and its answer within `timeoutMs` (a result, else undefined): the run's connection. */
export type Ask = (topic: string, params: unknown, timeoutMs: number) => Promise<unknown>;

/**
 * Symbols to name, from the server: nav/symbols of a few code files for their top-level names, then
 * nav/findSymbol of each top-level name with depth 10 for the own name paths of it and its descendants,
 * until `deadline` (epoch ms): a cold language server must not eat the run's trials.
 */
export async function collectSymbols(
  ask: Ask,
  files: readonly string[],
  capabilities: readonly string[],
  deadline: number,
): Promise<SymbolSample[]> {
  const samples: SymbolSample[] = [];
  if (!capabilities.includes(FIND_SYMBOL) || !capabilities.includes(SYMBOLS)) return samples;
  const code = files.filter(
    (f) => CODE.test(f) && !f.split('/').some((s) => s === 'node_modules' || s.startsWith('.')),
  );
  let named = 0;
  for (const filePath of code.slice(0, MAX_ASKED)) {
    if (named >= MAX_FILES || samples.length >= MAX_SAMPLES || Date.now() >= deadline) break;
    const listed = await ask(SYMBOLS, { filePath }, deadline - Date.now());
    const symbols = isObject(listed) && Array.isArray(listed.symbols) ? listed.symbols : [];
    if (symbols.length > 0) named++;
    const top = new Set<string>();
    for (const s of symbols)
      if (isObject(s) && s.containerName === null && typeof s.name === 'string' && s.name !== '') top.add(s.name);
    for (const name of [...top].slice(0, MAX_TOP_LEVEL)) {
      if (Date.now() >= deadline) break;
      const found = await ask(
        FIND_SYMBOL,
        { filePath, namePath: `/${escapeName(name)}`, depth: 10 },
        deadline - Date.now(),
      );
      for (const s of isObject(found) && Array.isArray(found.symbols) ? found.symbols : []) {
        if (!isObject(s)) continue;
        for (const n of [s, ...(Array.isArray(s.children) ? s.children : [])])
          if (isObject(n) && typeof n.namePath === 'string' && samples.length < MAX_SAMPLES)
            samples.push({ filePath, namePath: n.namePath });
      }
    }
  }
  return samples;
}

/** The suffixes of a name path that drop its anchor and leading segments (segments split where the parser splits). */
export function suffixesOf(namePath: string): string[] {
  const parsed = parseNamePath(namePath);
  const out: string[] = [];
  for (let k = 0; k < parsed.segments.length; k++)
    out.push(
      parsed.segments
        .slice(k)
        .map((s) => (s.index === undefined ? escapeName(s.name) : `${escapeName(s.name)}[${s.index}]`))
        .join('/'),
    );
  return out;
}

/** Ways to break a name path, each a small edit a person or a model could make. */
const BREAKS: ((p: string, at: number) => string)[] = [
  (p, at) => `${p.slice(0, at)}]${p.slice(at)}`,
  (p, at) => `${p.slice(0, at)}\\q${p.slice(at)}`,
  (p, at) => `${p.slice(0, at)}\\ ${p.slice(at)}`,
  (p) => `${p}\\`,
  (p) => `${p}/`,
  (p) => `//${p.replace(/^\//, '')}`,
  (p) => p.replace('/', '//'),
  (p) => `${p}[01]`,
  (p) => `${p}[`,
  (p) => `${p}[]`,
  (p) => `${p}[x]`,
  (p) => `${p}[1234567890]`,
  (p) => `${p}[1]x`,
  (p) => `[0]${p}`,
  (p, at) => `${p.slice(0, at)}[${p.slice(at)}`,
];

/** The label of a name path by our parser: malformed (with where), or undefined when it parses. */
export function malformedLabel(text: string): NamePathLabel | undefined {
  try {
    parseNamePath(text);
    return undefined;
  } catch (e) {
    if (!(e instanceof NamePathError)) throw e;
    return { kind: 'malformed', at: e.at, problem: e.problem };
  }
}

/**
 * Params of a topic that takes a name path, with filePath and namePath set and line and character removed;
 * for nav/findSymbol without what narrows a match (kinds, substring), so that a symbol's name path finds it.
 */
function locatorParams(model: TopicModel, base: unknown, filePath: string, namePath: string): Record<string, unknown> {
  const {
    line: _l,
    character: _c,
    includeKinds: _i,
    excludeKinds: _e,
    substring: _s,
    ...rest
  } = (isObject(base) ? base : {}) as Record<string, unknown>;
  const params = { ...rest, filePath, namePath };
  // Another field generated out of the schema's bounds: the example's.
  return model.validate(params) ? params : exampleParams(model, filePath, namePath);
}

/**
 * The topic's first example that names a symbol, with our file and name path: params nothing else is wrong
 * with (a malformed name path must be the only reason to refuse them: a random newName may be another).
 */
function exampleParams(model: TopicModel, filePath: string, namePath: string): Record<string, unknown> {
  const example = ((model.schema.examples as unknown[] | undefined) ?? []).find((e) => isObject(e) && 'namePath' in e);
  return { ...(example as Record<string, unknown>), filePath, namePath };
}

/** The topics of `models` that take a name path (nav/findSymbol and the position topics). */
export function namePathModels(models: readonly TopicModel[]): TopicModel[] {
  return models.filter((m) => isObject(m.schema.properties) && 'namePath' in m.schema.properties);
}

/** Inputs that name symbols: own name paths, their suffixes, broken ones, and locators in both forms or neither. */
export function namePathArb(
  models: readonly TopicModel[],
  samples: readonly SymbolSample[],
  ctx: GenContext,
): fc.Arbitrary<FuzzInput> {
  const sample = fc.constantFrom(...samples);
  const arbs = models.map((model) => {
    const base = validArb(model.schema, model.schema, '', ctx, model.destructive);
    const findSymbol = model.topic === FIND_SYMBOL;
    const own = fc.tuple(base, sample).map(
      ([b, s]): FuzzInput => ({
        topic: model.topic,
        params: locatorParams(model, b, s.filePath, s.namePath),
        namePath: { kind: 'own', own: s.namePath },
      }),
    );
    const suffix = fc.tuple(base, sample, fc.nat()).map(([b, s, k]): FuzzInput => {
      const all = suffixesOf(s.namePath);
      return {
        topic: model.topic,
        params: locatorParams(model, b, s.filePath, all[k % all.length]!),
        namePath: { kind: 'suffix', own: s.namePath },
      };
    });
    const text = fc.oneof(
      { arbitrary: sample.map((s) => s.namePath), weight: 3 },
      { arbitrary: fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }), weight: 1 },
    );
    const broken = fc.tuple(sample, text, fc.nat(), fc.nat()).map(([s, t, which, at]): FuzzInput => {
      const np = BREAKS[which % BREAKS.length]!(t, at % (t.length + 1));
      const params = exampleParams(model, s.filePath, np);
      const label = np.length >= 1 && np.length <= 1024 && model.validate(params) ? malformedLabel(np) : undefined;
      return { topic: model.topic, params, ...(label ? { namePath: label } : {}) };
    });
    const parts: fc.WeightedArbitrary<FuzzInput>[] = [
      { arbitrary: own, weight: 2 },
      { arbitrary: suffix, weight: findSymbol ? 2 : 0 },
      { arbitrary: broken, weight: 3 },
    ];
    if (!findSymbol) {
      const both = fc.tuple(base, sample, fc.constantFrom(['line'], ['character'], ['line', 'character'])).map(
        ([b, s, keys]): FuzzInput => ({
          topic: model.topic,
          params: {
            ...locatorParams(model, b, s.filePath, s.namePath),
            ...Object.fromEntries(keys.map((k) => [k, 0])),
          },
          namePath: { kind: 'both-forms' },
        }),
      );
      const neither = fc.tuple(base, sample).map(([b, s]): FuzzInput => {
        const { namePath: _n, ...params } = locatorParams(model, b, s.filePath, s.namePath);
        return { topic: model.topic, params, namePath: { kind: 'no-form' } };
      });
      // Neither form is T44's refusal only where a form is required (its schema's anyOf); edit/format
      // without one formats the whole file.
      const formRequired = Array.isArray(model.schema.anyOf);
      parts.push({ arbitrary: both, weight: 1 }, { arbitrary: neither, weight: formRequired ? 1 : 0 });
    }
    return fc.oneof(...parts.filter((p) => p.weight > 0));
  });
  return fc.oneof(...arbs);
}

/** The standalone number `n` in a message (not part of a longer number). */
export function namesCharacter(message: string, n: number): boolean {
  return new RegExp(`(^|\\D)${n}(\\D|$)`).test(message);
}

const cut = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

/** The symbols a nav/findSymbol result lists. */
function symbolsOf(result: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(result.symbols) ? result.symbols.filter(isObject) : [];
}

/**
 * The name-path and budget problems of an answer that passed the generic oracles (a frame that validates,
 * an error code the topic lists): undefined `label` judges the budget alone.
 */
export function judgeNamePath(input: FuzzInput, answer: Answer): Problem[] {
  if (answer.kind !== 'frame') return [];
  const frame = JSON.parse(answer.text) as Record<string, unknown>;
  const error = isObject(frame.error) ? frame.error : undefined;
  const result = isObject(frame.result) ? frame.result : undefined;
  const problems: Problem[] = [];
  if (input.topic === FIND_SYMBOL && result) {
    const params = isObject(input.params) ? input.params : {};
    const budget = typeof params.maxAnswerChars === 'number' ? params.maxAnswerChars : 200_000;
    const size = JSON.stringify(result).length;
    if (size > budget)
      problems.push({
        oracle: 'budget',
        clause: 'T46',
        detail: `the result is ${size} characters as JSON, over maxAnswerChars ${budget} (form ${String(result.form)})`,
      });
  }
  const label = input.namePath;
  if (!label) return problems;
  const np = isObject(input.params) ? JSON.stringify(input.params.namePath) : '?';
  const bad = (clause: string, detail: string) => problems.push({ oracle: 'name-path', clause, detail });
  switch (label.kind) {
    case 'malformed':
      if (error?.code !== 'INVALID_REQUEST')
        bad(
          'T43',
          `namePath ${np} is malformed (${label.problem} at character ${label.at}), but the answer is ${cut(answer.text)}`,
        );
      else if (!namesCharacter(String(error.message), label.at))
        bad(
          'T43',
          `namePath ${np} is malformed at character ${label.at} (${label.problem}), but the message does not say where: ${JSON.stringify(error.message)}`,
        );
      break;
    case 'both-forms':
    case 'no-form':
      if (error?.code !== 'INVALID_REQUEST')
        bad(
          'T44',
          `${label.kind === 'both-forms' ? 'namePath with line or character' : 'neither namePath nor line and character'}: INVALID_REQUEST expected, got ${cut(answer.text)}`,
        );
      break;
    case 'own':
      if (error && 'candidates' in error)
        bad(
          'T43',
          `${np} is a symbol's own name path as the server listed it, yet it did not name one symbol: ${cut(answer.text)}`,
        );
      else if (input.topic === FIND_SYMBOL && result && result.form !== 'counts') {
        const found = symbolsOf(result);
        if (found.length !== 1 || found[0]!.namePath !== label.own)
          bad(
            'T43',
            `${np} is a symbol's own name path, so it matches that symbol alone; found ${found.length}: ${cut(JSON.stringify(found.map((s) => s.namePath)))}`,
          );
      }
      break;
    case 'suffix':
      if (input.topic === FIND_SYMBOL && result && result.form !== 'counts' && result.truncated === false) {
        const found = symbolsOf(result);
        if (!found.some((s) => s.namePath === label.own))
          bad(
            'T43',
            `${np} is a suffix of ${JSON.stringify(label.own)}, so it matches that symbol, yet it is not among ${cut(JSON.stringify(found.map((s) => s.namePath)))}`,
          );
      }
      break;
  }
  return problems;
}

/** The fixture case of a name-path finding: the request, and the answer its oracle wants (undefined: none holds it). */
export function namePathExpect(input: FuzzInput, problem: Problem, errors: readonly string[]): unknown | undefined {
  const label = input.namePath;
  if (problem.oracle === 'budget' || !label) return undefined;
  switch (label.kind) {
    case 'malformed':
      return { error: { code: 'INVALID_REQUEST', message: { $match: `(^|\\D)${label.at}(\\D|$)` } } };
    case 'both-forms':
    case 'no-form':
      return { error: { code: 'INVALID_REQUEST' } };
    case 'own':
      return input.topic === FIND_SYMBOL
        ? { result: { symbols: { $length: 1, $contains: [{ namePath: label.own }] } } }
        : {
            anyOf: [
              { result: { $type: 'object' } },
              { error: { code: { $oneOf: [...errors] }, candidates: { $absent: true } } },
            ],
          };
    case 'suffix':
      return { result: { symbols: { $contains: [{ namePath: label.own }] } } };
  }
}
