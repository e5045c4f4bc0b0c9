// The exchange case: frames sent and expected step by step on one connection, with the runner writing
// and reading workspace files between them. Each step kind has one handler in STEPS; a step of a kind
// the table does not know ends the case as an error (step-table.ts).
import { createHash } from 'node:crypto';
import { createTwoFilesPatch } from 'diff';
import {
  Abort,
  type CaseContext,
  cut,
  describeIncoming,
  openForCase,
  safeParse,
  substituteOrAbort,
} from './case-context';
import type { Connection } from './connection';
import { match, renderMismatch } from './match';
import { type KindOf, type StepEntry, type StepOf, stepKind } from './step-table';
import type { ExchangeCase } from './types';
import { bindFrom, substitute } from './vars';
import type { FileState } from './workspace-files';

type ExchangeStep = ExchangeCase['steps'][number];
type ExchangeKind = KindOf<ExchangeStep>;
type StepHandler<K extends ExchangeKind> = (
  ctx: CaseContext,
  conn: Connection,
  step: StepOf<ExchangeStep, K>,
  label: string,
) => Promise<void> | void;

/** Every exchange step kind, with what it does (the fixture schema's `exchangeStep` describes each). */
const STEPS: { [K in ExchangeKind]: StepEntry & { run: StepHandler<K> } } = {
  send: { run: (ctx, conn, step) => conn.send(substitute(step.send, ctx.vars)) },
  sendText: { run: (ctx, conn, step) => conn.sendText(substitute(step.sendText, ctx.vars)) },
  expect: {
    modifiers: ['bind', 'measure'],
    async run(ctx, conn, step, label) {
      const t0 = performance.now();
      const got = await conn.next(ctx.timeoutMs);
      if (step.measure !== undefined) ctx.measures.set(step.measure, performance.now() - t0);
      if (got?.kind !== 'frame')
        throw new Abort({ name: label, ok: false, detail: `expected a frame, ${describeIncoming(got)}` });
      const frame = safeParse(got.text);
      const outcome = match(substitute(step.expect, ctx.vars), frame);
      ctx.checks.push({
        name: label,
        ok: outcome.ok,
        detail: outcome.ok ? undefined : renderMismatch(outcome, 'frame'),
      });
      Object.assign(ctx.vars, bindFrom(frame, step.bind).vars);
    },
  },
  expectUnordered: {
    async run(ctx, conn, step, label) {
      const frames: unknown[] = [];
      for (let k = 0; k < step.expectUnordered.length; k++) {
        const got = await conn.next(ctx.timeoutMs);
        if (got?.kind !== 'frame')
          throw new Abort({
            name: label,
            ok: false,
            detail: `expected ${step.expectUnordered.length} frames, got ${k}; then ${describeIncoming(got)}`,
          });
        frames.push(safeParse(got.text));
      }
      const outcome = match(substitute({ $unordered: step.expectUnordered }, ctx.vars), frames);
      ctx.checks.push({
        name: label,
        ok: outcome.ok,
        detail: outcome.ok ? undefined : renderMismatch(outcome, 'frames'),
      });
    },
  },
  expectClose: {
    async run(ctx, conn, step, label) {
      const got = await conn.next(ctx.timeoutMs);
      if (got?.kind !== 'close') {
        ctx.checks.push({
          name: label,
          ok: false,
          detail: `expected the server to close the connection, ${describeIncoming(got)}`,
        });
        return;
      }
      const outcome = match(step.expectClose.code ?? { $type: 'integer' }, got.code);
      ctx.checks.push({
        name: label,
        ok: outcome.ok,
        detail: outcome.ok ? undefined : `close code: ${outcome.problems.join('; ')}`,
      });
    },
  },
  sleepMs: { modifiers: ['why'], run: (_ctx, _conn, step) => new Promise((r) => setTimeout(r, step.sleepMs)) },
  expectSilence: {
    modifiers: ['why'],
    async run(ctx, conn, step, label) {
      const { ms, how } = silenceWindow(ctx, step.expectSilence, label);
      const got = await conn.next(ms);
      ctx.checks.push({
        name: label,
        ok: got === undefined,
        detail: got ? `expected no frame for ${ms} ms (${how}), ${describeIncoming(got)}` : undefined,
      });
    },
  },
  writeFile: {
    run: (ctx, _conn, step, label) => ctx.writeFile(step.writeFile.path, step.writeFile.content, `${label}: writeFile`),
  },
  deleteFile: { run: (ctx, _conn, step, label) => ctx.deleteFile(step.deleteFile.path, `${label}: deleteFile`) },
  await: {
    modifiers: ['withinMs', 'bind', 'measure'],
    async run(ctx, conn, step, label) {
      const t0 = performance.now();
      const frame = await awaitFrame(ctx, conn, step.await, step.withinMs ?? ctx.timeoutMs, label);
      if (step.measure !== undefined && frame !== undefined) ctx.measures.set(step.measure, performance.now() - t0);
      if (frame !== undefined) Object.assign(ctx.vars, bindFrom(frame, step.bind).vars);
    },
  },
  expectOneOf: {
    modifiers: ['measure'],
    async run(ctx, conn, step, label) {
      const t0 = performance.now();
      const got = await conn.next(ctx.timeoutMs);
      if (step.measure !== undefined) ctx.measures.set(step.measure, performance.now() - t0);
      if (got?.kind !== 'frame')
        throw new Abort({ name: label, ok: false, detail: `expected a frame, ${describeIncoming(got)}` });
      const frame = safeParse(got.text);
      const outcomes = step.expectOneOf.map((alt) => match(substitute(alt.expect, ctx.vars), frame));
      const k = outcomes.findIndex((o) => o.ok);
      if (k < 0) {
        ctx.checks.push({
          name: label,
          ok: false,
          detail: `the frame matches none of the ${outcomes.length} alternatives:\n${outcomes
            .map((o, j) => `alternative ${j + 1}:\n${renderMismatch(o, 'frame')}`)
            .join('\n')}`,
        });
        return;
      }
      ctx.checks.push({ name: `${label} (alternative ${k + 1})`, ok: true });
      await runSteps(ctx, conn, step.expectOneOf[k]!.then ?? [], `${label}.then`);
    },
  },
  expectFiles: {
    run(ctx, _conn, step, label) {
      const expected = substitute(step.expectFiles, ctx.vars);
      const actual: Record<string, unknown> = {};
      for (const rel of Object.keys(expected)) {
        const f = ctx.readFile(rel, `${label}: expectFiles`);
        if (f) actual[rel] = 'bytes' in f ? f.bytes.toString('utf8') : { notAFile: f.other };
      }
      const outcome = match(expected, actual);
      ctx.checks.push({
        name: label,
        ok: outcome.ok,
        detail: outcome.ok ? undefined : renderMismatch(outcome, 'files'),
      });
    },
  },
  expectFilesUnchanged: {
    run(ctx, _conn, step, label) {
      const changed: string[] = [];
      for (const p of step.expectFilesUnchanged) {
        const rel = substitute(p, ctx.vars);
        const diff = fileChange(rel, ctx.filesAtStart.get(rel), ctx.readFile(rel, `${label}: expectFilesUnchanged`));
        if (diff) changed.push(diff);
      }
      ctx.checks.push({
        name: label,
        ok: changed.length === 0,
        detail: changed.length ? `changed since the case began:\n${changed.join('\n')}` : undefined,
      });
    },
  },
};

type Silence = StepOf<ExchangeStep, 'expectSilence'>['expectSilence'];

/**
 * An expectSilence window in ms: fixed, or sized from what the case measured on this server (`of` ×
 * `factor`, within [`floorMs`, `maxMs`]), so that a fast server is not held to a slow one's wait. A
 * window naming a measurement the case did not make is a broken fixture (the case is an error).
 */
export function silenceWindow(ctx: CaseContext, w: Silence, label: string): { ms: number; how: string } {
  if (typeof w === 'number') return { ms: w, how: 'a fixed window' };
  const measured = ctx.measures.get(w.of);
  if (measured === undefined)
    throw new Abort(
      { name: label, ok: false, detail: `expectSilence sized from "${w.of}", which no earlier step measured` },
      true,
    );
  const max = w.maxMs ?? 30_000;
  const ms = Math.min(max, Math.max(w.floorMs, Math.ceil(measured * w.factor)));
  return { ms, how: `${w.factor} × ${Math.round(measured)} ms measured as ${w.of}, within ${w.floorMs}–${max} ms` };
}

export async function runExchangeCase(ctx: CaseContext, c: ExchangeCase): Promise<void> {
  const conn = await openForCase(ctx);
  if (c.handshake === 'auto') await ctx.handshake(conn);
  // Before the first step: what `expectFilesUnchanged` compares with.
  for (const p of new Set(unchangedPaths(c.steps))) {
    const rel = substituteOrAbort(p, ctx.vars, 'expectFilesUnchanged');
    ctx.filesAtStart.set(rel, ctx.readFile(rel, 'setup: expectFilesUnchanged'));
  }
  await runSteps(ctx, conn, c.steps, 'step');
}

async function runSteps(ctx: CaseContext, conn: Connection, steps: readonly ExchangeStep[], prefix: string) {
  for (const [i, step] of steps.entries()) {
    const label = `${prefix}[${i}]`;
    const kind = stepKind(step, STEPS, label);
    await (STEPS[kind].run as StepHandler<typeof kind>)(ctx, conn, step as StepOf<ExchangeStep, typeof kind>, label);
  }
}

/** The paths `expectFilesUnchanged` steps name, nested alternatives included. */
function unchangedPaths(steps: readonly ExchangeStep[]): string[] {
  return steps.flatMap((s) => {
    if ('expectFilesUnchanged' in s) return s.expectFilesUnchanged;
    if ('expectOneOf' in s) return s.expectOneOf.flatMap((alt) => unchangedPaths(alt.then ?? []));
    return [];
  });
}

function isEventFrame(frame: unknown): boolean {
  return typeof frame === 'object' && frame !== null && (frame as { type?: unknown }).type === 'event';
}

function describeFile(f: FileState): string {
  if (!f) return 'no file';
  if ('other' in f) return f.other;
  return `${f.bytes.length} bytes, sha256 ${createHash('sha256').update(f.bytes).digest('hex').slice(0, 12)}`;
}

/** How a file differs from what it was (a unified diff for text), or undefined when it is byte for byte the same. */
function fileChange(rel: string, before: FileState, now: FileState): string | undefined {
  if (before && now && 'bytes' in before && 'bytes' in now) {
    if (before.bytes.equals(now.bytes)) return undefined;
    const patch = createTwoFilesPatch(
      `${rel} (before)`,
      `${rel} (now)`,
      before.bytes.toString('utf8'),
      now.bytes.toString('utf8'),
    );
    const body = patch.split('\n').slice(1).join('\n').trimEnd(); // drop the "====" line
    return `  • ${rel}: ${describeFile(before)} → ${describeFile(now)}\n${cut(body, 2000)}`;
  }
  const a = describeFile(before);
  const b = describeFile(now);
  return a === b ? undefined : `  • ${rel}: ${a} → ${b}`;
}

/**
 * `await`: the first frame matching `pattern`, from the events earlier `await` steps skipped (oldest
 * first), then from the wire for at most `withinMs`. Events that do not match are skipped and kept for
 * later; any other frame that does not match fails the step (returns undefined); so does the time
 * running out or the connection closing (the case ends: nothing later can be paired). Failures list
 * what was skipped.
 */
async function awaitFrame(
  ctx: CaseContext,
  conn: Connection,
  pattern: unknown,
  withinMs: number,
  label: string,
): Promise<unknown> {
  const expected = substitute(pattern, ctx.vars);
  const kept = ctx.skippedEvents.get(conn) ?? [];
  ctx.skippedEvents.set(conn, kept);
  const earlier = kept.length;
  for (const [k, text] of kept.entries()) {
    const frame = safeParse(text);
    if (match(expected, frame).ok) {
      kept.splice(k, 1);
      ctx.checks.push({ name: label, ok: true });
      return frame;
    }
  }
  const skipped: string[] = [];
  const deadline = performance.now() + withinMs;
  const skippedSoFar = () => {
    const all = [...kept.slice(0, earlier), ...skipped];
    if (all.length === 0) return 'no event was skipped';
    const shown = all.slice(-5).map((t) => `    ${cut(t)}`);
    const last = renderMismatch(match(expected, safeParse(all.at(-1)!)), 'event');
    return `skipped ${all.length} event${all.length === 1 ? '' : 's'} that did not match (${earlier} kept from earlier steps)${all.length > 5 ? ', the last 5' : ''}:\n${shown.join('\n')}\n  the last one against what was awaited:\n${last}`;
  };
  for (;;) {
    const left = Math.round(deadline - performance.now());
    const got = left > 0 ? await conn.next(left) : undefined;
    if (got?.kind !== 'frame')
      throw new Abort({
        name: label,
        ok: false,
        detail: `no frame matching ${cut(JSON.stringify(expected), 600)} within ${withinMs} ms: ${describeIncoming(got)}; ${skippedSoFar()}`,
      });
    const frame = safeParse(got.text);
    const outcome = match(expected, frame);
    if (outcome.ok) {
      ctx.checks.push({ name: label, ok: true });
      return frame;
    }
    if (isEventFrame(frame)) {
      kept.push(got.text);
      skipped.push(got.text);
      continue;
    }
    ctx.checks.push({
      name: label,
      ok: false,
      detail: `a frame that is not an event and does not match what was awaited:\n${renderMismatch(outcome, 'frame')}\n${skippedSoFar()}`,
    });
    return undefined;
  }
}
