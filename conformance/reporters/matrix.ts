// The implementation matrix as Markdown (for a step summary or a README) and as one self-contained HTML
// page (filters: only the cases where implementations differ, hide all-pass rows, text). Pure functions.
import { clauseLink } from '../lib/clauses';
import { type Matrix, type MatrixCell, rowDiffers } from '../lib/matrix';
import { VERDICTS } from '../lib/types';
import { attr, badge, esc, page, safeHref } from './html-page';

const MD_ICON = { pass: '✅', fail: '❌', warn: '⚠️', error: '💥', skip: '⏭️', unimplemented: '🚧' } as const;

/** A Markdown table cell: one line, no pipes or markup from the report. */
export function mdCell(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/([`*_[\]])/g, '\\$1');
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const headline = (m: Matrix) =>
  `${plural(m.columns.length, 'implementation', 'implementations')}, ${plural(
    m.groups.reduce((n, g) => n + g.rows.length, 0),
    'case',
    'cases',
  )} in ${plural(m.groups.length, 'clause', 'clauses')}`;

const mdVerdict = (c: MatrixCell | undefined) =>
  c ? `${MD_ICON[c.verdict]} ${c.verdict}${c.expectedFailure ? ' (expected)' : ''}` : '—';

export function matrixToMarkdown(m: Matrix): string {
  const cols = m.columns;
  const lines = [
    '## IDEA conformance matrix',
    '',
    `${headline(m)}; — = not in that report.`,
    '',
    `| implementation | verdict | ${VERDICTS.join(' | ')} | report |`,
    `|---|---|${VERDICTS.map(() => '---:').join('|')}|---|`,
    ...cols.map(
      (c) =>
        `| ${mdCell(c.name)} | ${c.ok === undefined ? '?' : c.ok ? '✅ conformant' : '❌ not conformant'} | ${VERDICTS.map((v) => c.counts[v]).join(' | ')} | ${mdCell(c.file)} |`,
    ),
    '',
    `| case | ${cols.map((c) => mdCell(c.name)).join(' | ')} |`,
    `|---|${cols.map(() => '---').join('|')}|`,
  ];
  for (const g of m.groups) {
    // Only clauses this suite knows get a link (and a title): a report's clause id is just text.
    const clause = g.title ? `[${mdCell(g.clause)}](${clauseLink(g.clause)})` : mdCell(g.clause);
    lines.push(`| **${clause}**${g.title ? ` ${mdCell(g.title)}` : ''} |${cols.map(() => ' ').join('|')}|`);
    for (const r of g.rows)
      lines.push(`| \`${r.id.replace(/[`|\r\n]/g, '?')}\` | ${r.cells.map(mdVerdict).join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

const SCRIPT = `(function(){var f=document.getElementById('filters'),rows=[].slice.call(document.querySelectorAll('tr.case')),out=document.getElementById('shown');
function apply(){var d=f.elements.differ.checked,h=f.elements.nopass.checked,q=f.elements.q.value.trim().toLowerCase(),n=0;
rows.forEach(function(r){var ok=(!d||r.dataset.differs==='1')&&(!h||r.dataset.allpass!=='1')&&(!q||r.dataset.text.indexOf(q)>=0);r.hidden=!ok;if(ok)n++});
[].forEach.call(document.querySelectorAll('tbody.clause'),function(b){b.hidden=!b.querySelector('tr.case:not([hidden])')});
out.textContent=n+' of '+rows.length+' cases shown'}
f.addEventListener('input',apply);f.addEventListener('change',apply);f.addEventListener('reset',function(){setTimeout(apply,0)});
f.addEventListener('submit',function(e){e.preventDefault()});apply()})();`;

export interface MatrixHtmlOptions {
  /** Where a clause id links to (default clauseLink). */
  clauseHref?: (id: string) => string;
}

export function matrixToHtml(m: Matrix, opts: MatrixHtmlOptions = {}): string {
  const href = opts.clauseHref ?? clauseLink;
  const cols = m.columns;
  const cell = (c: MatrixCell | undefined) =>
    c
      ? `<td${c.reason ? ` title="${attr(c.reason)}"` : ''}>${badge(c.verdict, c.expectedFailure)}</td>`
      : '<td class="muted">—</td>';
  const body = `<header><h1>IDEA conformance matrix</h1>
<p>${headline(m)}; — = not in that report.</p>
<div class="scroll"><table><thead><tr><th scope="col">implementation</th><th scope="col">verdict</th>${VERDICTS.map((v) => `<th scope="col">${v}</th>`).join('')}<th scope="col">report</th></tr></thead><tbody>
${cols.map((c) => `<tr><th scope="row">${esc(c.name)}</th><td>${c.ok === undefined ? '?' : c.ok ? '<span class="ok">✓ conformant</span>' : '<span class="bad">✗ not conformant</span>'}</td>${VERDICTS.map((v) => `<td class="n">${c.counts[v]}</td>`).join('')}<td><code>${esc(c.file)}</code></td></tr>`).join('\n')}
</tbody></table></div></header>
<main>
<form id="filters" class="filters" role="search" aria-label="Filter cases">
<label><input type="checkbox" name="differ"> only cases where implementations differ</label>
<label><input type="checkbox" name="nopass"> hide cases every implementation passes</label>
<label>text <input type="search" name="q" placeholder="case id or description"></label>
<button type="reset">Clear filters</button>
<output id="shown" aria-live="polite"></output>
</form>
<div class="scroll"><table class="matrix"><thead><tr><th scope="col">case</th>${cols.map((c) => `<th scope="col">${esc(c.name)}</th>`).join('')}</tr></thead>
${m.groups
  .map(
    (
      g,
    ) => `<tbody class="clause"><tr><th scope="rowgroup" colspan="${cols.length + 1}">${g.title ? `<a href="${safeHref(href(g.clause))}">${esc(g.clause)}</a> ${esc(g.title)}` : esc(g.clause)}</th></tr>
${g.rows.map((r) => `<tr class="case" data-differs="${rowDiffers(r) ? 1 : 0}" data-allpass="${r.cells.every((c) => c?.verdict === 'pass') ? 1 : 0}" data-text="${attr(`${r.id} ${r.description}`.toLowerCase())}"><th scope="row"><code>${esc(r.id)}</code></th>${r.cells.map(cell).join('')}</tr>`).join('\n')}</tbody>`,
  )
  .join('\n')}
</table></div>
</main>`;
  return page('IDEA conformance matrix', body, SCRIPT);
}
