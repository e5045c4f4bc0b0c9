// What every report shows for a non-passing case: what it checks, the clause it cites (with its link
// into protocol.md), the fixture file and, for transport cases, what was sent.

import { basename } from 'node:path';
import { clauseLink, clauseOf } from '../lib/clauses';
import { DEFAULT_FIXTURES } from '../lib/load';
import type { CaseResult } from '../lib/types';

/** Where reports say the fixture files are unless told otherwise: the served version's cases. */
export const DEFAULT_FIXTURES_SHOWN = `conformance/fixtures/${basename(DEFAULT_FIXTURES)}`;

export function contextLines(r: CaseResult, fixturesDir: string): string[] {
  const c = clauseOf(r.clause);
  const lines = [
    r.description,
    `clause ${r.clause}${c ? ` (${c.layer}: ${c.title})` : ''}, ${r.profile} profile, ${r.level}: ${clauseLink(r.clause)}`,
    `fixture: ${fixturesDir.replace(/\/$/, '')}/${r.file}`,
  ];
  if (r.sent) lines.push(`sent: ${r.sent}`);
  return lines;
}
