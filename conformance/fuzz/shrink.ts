// Search and shrink with fast-check: rounds of generation (seed, seed+1, … after each finding) that stop
// at the first new kind of failure, then a replay of that run (fast-check's seed + path) that shrinks it
// with a budget of its own. A shrink candidate counts as failing only when it fails the same way (same
// topic, oracle and what a case would expect of it: oracles.ts shrinkKind), so shrinking cannot slide
// into a different bug, and the finding describes and expects what its shrunk input is.
import fc from 'fast-check';
import type { Validate } from '../../runtime/frames';
import { type Carried, expectsByLabel, type FuzzInput, subjectOf } from './input';
import { type Problem, shrinkKind, signature } from './oracles';

export interface Found {
  /** The shrunk input and what it broke, the problem of the finding's kind first. */
  input: FuzzInput;
  problems: Problem[];
  /** The input first found, before shrinking, and what it broke. */
  original: FuzzInput;
  originalProblems: Problem[];
  signature: string;
  /** fast-check's seed and path of the first failing run: `fc.check(…, {seed, path})` replays it. */
  seed: number;
  path: string;
  shrinks: number;
  shrinkMs: number;
}

export interface SearchOptions {
  seed: number;
  /** Trials in all (generation only; shrinking has its own budget). */
  runs?: number;
  /** Epoch ms after which no new generation round starts. */
  deadline: number;
  /** Budget for shrinking one finding. */
  shrinkMs: number;
  /** Signatures already reported (found before the search): not found again. */
  known?: Iterable<string>;
  /** True once trials can no longer run (the server is gone for good): the search ends. */
  stopped?(): boolean;
  onFinding?(f: Found): void;
}

export type Trial = (input: FuzzInput) => Promise<Problem[]>;

export async function searchAndShrink(
  arb: fc.Arbitrary<FuzzInput>,
  trial: Trial,
  o: SearchOptions,
): Promise<{ findings: Found[]; trials: number }> {
  const known = new Set<string>(o.known);
  const findings: Found[] = [];
  let trials = 0;
  const left = () => (o.runs === undefined ? Number.POSITIVE_INFINITY : o.runs - trials);
  const stopped = () => o.stopped?.() ?? false;
  for (let round = 0; Date.now() < o.deadline && left() > 0 && !stopped(); round++) {
    const roundSeed = (o.seed + round) | 0;
    let hit: { sig: string; problems: Problem[] } | undefined;
    const found = await fc.check(
      fc.asyncProperty(arb, async (input) => {
        if (Date.now() >= o.deadline || left() <= 0 || stopped()) return true; // budget spent: the rest pass untried
        trials++;
        const fresh = (await trial(input)).filter((p) => !known.has(signature(subjectOf(input), p)));
        if (fresh.length === 0) return true;
        hit = { sig: signature(subjectOf(input), fresh[0]!), problems: fresh };
        return false;
      }),
      {
        seed: roundSeed,
        numRuns: Math.min(left(), 1_000_000_000),
        endOnFailure: true,
        // (setTimeout reads Infinity as 1 ms: only a finite budget becomes a limit)
        ...(Number.isFinite(o.deadline) ? { interruptAfterTimeLimit: Math.max(1, o.deadline - Date.now()) } : {}),
      },
    );
    if (!found.failed || !hit || !found.counterexample || !found.counterexamplePath) break;
    const { sig } = hit;
    known.add(sig);
    const original = found.counterexample[0];
    const kind = shrinkKind(original, hit.problems[0]!);
    let last = { input: original, problems: hit.problems };
    let shrinks = 0;
    const started = Date.now();
    await fc.check(
      fc.asyncProperty(arb, async (input) => {
        if (stopped()) return true; // nothing left to shrink against: the finding stays as found
        const problems = await trial(input);
        const same = problems.find((p) => shrinkKind(input, p) === kind);
        if (!same) return true;
        shrinks++;
        last = { input, problems: [same, ...problems.filter((p) => p !== same)] };
        return false;
      }),
      { seed: roundSeed, path: found.counterexamplePath, interruptAfterTimeLimit: o.shrinkMs },
    );
    const f: Found = {
      input: last.input,
      problems: last.problems,
      original,
      originalProblems: hit.problems,
      signature: sig,
      seed: roundSeed,
      path: found.counterexamplePath,
      shrinks: Math.max(0, shrinks - 1), // the first failing call is the replay itself
      shrinkMs: Date.now() - started,
    };
    findings.push(f);
    o.onFinding?.(f);
  }
  return { findings, trials };
}

/**
 * Whether the input's labels are what its params are: "invalid" ones fail the topic's params schema,
 * the others pass it (each request of a duplicate id). The generator makes them so; a label that does
 * not hold would describe and expect something the input is not. Inputs judged by how they go out
 * (input.ts expectsByLabel) have none to hold.
 */
export function labelsHold(input: FuzzInput, validatorOf: (topic: string) => Validate | undefined): boolean {
  if (!expectsByLabel(input)) return true;
  // Both locator forms, or neither: the case expects INVALID_REQUEST by T44 whether or not the version's
  // params schema says it too (0.1.8's does: its dependentSchemas refuse namePath with line or character).
  if (input.namePath?.kind === 'both-forms' || input.namePath?.kind === 'no-form') return true;
  const holds = (r: Carried) => {
    const validate = validatorOf(r.topic);
    return validate === undefined || validate(r.params) === (r.invalid === undefined);
  };
  return holds(input) && (input.duplicate?.other ? holds(input.duplicate.other) : true);
}

/**
 * The finding as its case is written: shrunk, unless the shrunk input's labels do not hold; then as
 * first found; undefined when neither holds (no case says what was found).
 */
export function asWritten(f: Found, validatorOf: (topic: string) => Validate | undefined): Found | undefined {
  if (labelsHold(f.input, validatorOf)) return f;
  if (labelsHold(f.original, validatorOf)) return { ...f, input: f.original, problems: f.originalProblems, shrinks: 0 };
  return undefined;
}
