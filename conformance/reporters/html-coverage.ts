// The HTML report's clause coverage section: every clause of the run's profiles and version with the
// cases of the run that check it (their verdicts, linked to the case below), else idea-kit's own tests
// of it, from lib/coverage.ts. Pure, like the rest of the page.
import { type CaseMark, type ClauseCoverage, countsLine, coverageCounts, coverageOfRun } from '../lib/coverage';
import { VERDICTS, type Verdict } from '../lib/types';
import { attr, badge, esc, safeHref } from './html-page';
import type { RunSummary } from './types';

/** The id of a case's block in the page (caseBlock): what the coverage table links to. */
export const caseAnchor = (id: string) => `case-${id.replace(/[^A-Za-z0-9_-]/g, '-')}`;

const isVerdict = (m: CaseMark): m is Verdict => (VERDICTS as readonly string[]).includes(m);

function casesCell(c: ClauseCoverage): string {
  if (!c.cases.length) return '<span class="muted">none in this run</span>';
  const items = c.cases.map(
    (k) =>
      `<li><a href="#${attr(caseAnchor(k.id))}"><code>${esc(k.id)}</code></a> ${k.mark && isVerdict(k.mark) ? badge(k.mark, k.expectedFailure) : `<span class="muted">${esc(k.mark ?? '')}</span>`}${k.prefers ? ' <span class="muted">(its preference)</span>' : ''}</li>`,
  );
  return `<ul class="plain">${items.join('')}</ul>`;
}

function testsCell(c: ClauseCoverage): string {
  if (!c.tests.length) return c.cases.length ? '' : '<span class="bad">✗ neither a case nor a named test</span>';
  return `<ul class="plain">${c.tests.map((t) => `<li><code>${esc(t.file)}</code></li>`).join('')}</ul>`;
}

export function coverageSection(s: RunSummary, clauseHref: (id: string) => string): string {
  const cov = coverageOfRun(s);
  const line = countsLine(coverageCounts(cov), 'cases of this run', "idea-kit's own tests");
  const rows = cov.map(
    (c) =>
      `<tr data-coverage="${attr(c.status)}"><th scope="row"><a href="${safeHref(clauseHref(c.id))}">${esc(c.id)}</a></th><td>${esc(c.title)} <span class="muted">(${esc(c.layer)})</span></td><td>${casesCell(c)}</td><td>${testsCell(c)}</td></tr>`,
  );
  return `<details><summary><h2 id="coverage" style="display:inline">Clause coverage</h2> <span class="muted">(${esc(line)})</span></summary>
<p class="muted">Each clause of the run's profiles and version with the cases of this run that check it; a clause no client can observe names idea-kit's own tests of it instead (they test idea-kit's servers, not the server under test).</p>
<div class="scroll"><table class="coverage"><thead><tr><th scope="col">clause</th><th scope="col">title</th><th scope="col">cases of this run</th><th scope="col">idea-kit's own tests</th></tr></thead><tbody>
${rows.join('\n')}</tbody></table></div></details>`;
}
