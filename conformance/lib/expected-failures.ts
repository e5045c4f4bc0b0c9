// The expected-failures list: cases known not to pass, each with a reason. A listed case that passes
// (or does not exist) is stale and fails the run, so the list stays honest.
import { readFileSync } from 'node:fs';

interface ExpectedFailure {
  id: string;
  reason: string;
}

/** File format: `{ "expectedFailures": [ { "id": "...", "reason": "..." } ] }`. */
export function readExpectedFailures(file: string): Map<string, string> {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { expectedFailures?: ExpectedFailure[] };
  if (!Array.isArray(data.expectedFailures))
    throw new Error(`${file}: expected {"expectedFailures": [{"id", "reason"}]}`);
  const out = new Map<string, string>();
  for (const e of data.expectedFailures) {
    if (typeof e?.id !== 'string' || typeof e.reason !== 'string' || !e.reason.trim())
      throw new Error(`${file}: every entry needs an id and a reason`);
    out.set(e.id, e.reason);
  }
  return out;
}
