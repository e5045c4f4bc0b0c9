// Cost of the generated validators per frame, against JSON.parse of the same frame as the baseline
// (the one step every server must do anyway): valid requests of every topic (envelope + params), the
// mutations of them a server must refuse (bench/lib/frames.ts), and every topic's example result.

import { type BenchRow, emit } from '../lib/contract';
import { mutatedRequests, validRequests } from '../lib/frames';
import { exampleResults, generatedValidator, INDEX_TOPICS } from '../lib/server';
import { nowMs } from '../lib/stats';

const ROUNDS = 5;
const MIN_MS = 300;
const validateRequest = generatedValidator('Request');
const paramsV = new Map(INDEX_TOPICS.map((t) => [t.topic, generatedValidator(`${t.typeName}Params`)]));
const resultV = new Map(INDEX_TOPICS.map((t) => [t.topic, generatedValidator(`${t.typeName}Result`)]));

/** µs per item of `fn` over `items`, best of ROUNDS (each round runs at least MIN_MS). */
function perItem<T>(items: T[], fn: (x: T) => unknown): number {
  let best = Infinity;
  let sink = 0;
  for (let r = 0; r < ROUNDS; r++) {
    let n = 0;
    const t0 = nowMs();
    let t = t0;
    while (t - t0 < MIN_MS) {
      for (const x of items) if (fn(x)) sink++;
      n += items.length;
      t = nowMs();
    }
    best = Math.min(best, ((t - t0) * 1000) / n);
  }
  if (sink < 0) console.log(sink);
  return best;
}

function validateFrame(msg: any): boolean {
  if (!validateRequest(msg)) return false;
  const v = paramsV.get(msg.topic);
  return v ? v(msg.params ?? {}) : false;
}

const valid = validRequests().map((f) => JSON.stringify(f));
// Only those the validators refuse: a mutation can land on a field that accepts it (unknown params are ignored).
const bad = mutatedRequests()
  .filter((f) => !validateFrame(f))
  .map((f) => JSON.stringify(f));
const results = [...exampleResults()].map(([topic, r]) => ({ topic, text: JSON.stringify(r) }));

const rows: BenchRow[] = [];
const row = (metric: string, texts: string[], check: (m: any, i: number) => boolean) => {
  const parsed = texts.map((t) => JSON.parse(t));
  const parse = perItem(texts, (t) => JSON.parse(t));
  const val = perItem(
    parsed.map((m, i) => [m, i] as const),
    ([m, i]) => check(m, i),
  );
  rows.push({ metric, value: val, unit: 'µs/frame', baseline: parse, ratio: val / parse });
};
row(`valid requests, envelope + params (${valid.length} topics)`, valid, (m) => validateFrame(m));
row(`mutated requests, refused (${bad.length})`, bad, (m) => validateFrame(m));
row(
  `example results (${results.length} topics)`,
  results.map((r) => r.text),
  (m, i) => resultV.get(results[i]!.topic)!(m),
);
emit({ name: 'validator cost vs JSON.parse of the same frame', rows });
