// HTML report: one self-contained file for people. Summary by profile, topic and clause, clause coverage
// (html-coverage.ts); filters by verdict, topic, profile and text; every case with its description, clause
// link, fixture file, the frames it sent and received, and the diff of what failed. Server text is only
// ever escaped text (html-page.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { clauseLink, clauseOf, PROFILES } from '../lib/clauses';
import { type CaseResult, VERDICTS, type Verdict } from '../lib/types';
import { caseAnchor, coverageSection } from './html-coverage';
import { attr, badge, esc, page, safeHref, VERDICT_ICON } from './html-page';
import { isFinding, type Reporter, type RunSummary, scopeLine } from './types';

/**
 * Characters of one frame the page shows for a finding, and for a case that passed (the JSON report keeps
 * more): what keeps 186 cases under 500 kB even when most of them fail with diffs.
 */
export const HTML_FRAME_CHARS = { finding: 600, other: 200, handshake: 100 } as const;

export interface HtmlOptions {
  fixturesDir?: string;
  /** Where a clause id links to (default clauseLink, repository-relative in a clone). */
  clauseHref?: (id: string) => string;
}

const areaOf = (r: CaseResult) => r.id.split('/')[0]!;

function countRow(rs: readonly CaseResult[]): string {
  const k = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const r of rs) k[r.verdict]++;
  return `<td class="n">${rs.length}</td>${VERDICTS.map((v) => `<td class="n${k[v] && v !== 'pass' ? ` v-${v}` : ''}">${k[v] || ''}</td>`).join('')}`;
}

const countHead = (first: string) =>
  `<tr>${first}<th>cases</th>${VERDICTS.map((v) => `<th scope="col">${esc(v)}</th>`).join('')}</tr>`;

function groupBy<K>(rs: readonly CaseResult[], key: (r: CaseResult) => K): Map<K, CaseResult[]> {
  const m = new Map<K, CaseResult[]>();
  for (const r of rs) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
  return m;
}

/** Characters of one check's detail (a diff of a huge answer is huge; the JSON report has it whole). */
export const HTML_DETAIL_CHARS = 3000;

function diffBlock(detail: string): string {
  const text = detail.length > HTML_DETAIL_CHARS ? detail.slice(0, HTML_DETAIL_CHARS) : detail;
  const lines = text
    .split('\n')
    .map((l) => (/^\+/.test(l) ? `<ins>${esc(l)}</ins>` : /^-/.test(l) ? `<del>${esc(l)}</del>` : esc(l)));
  const cut =
    text === detail ? '' : `\n<span class="muted">… (${detail.length} characters; the JSON report has all)</span>`;
  return `<pre>${lines.join('\n')}${cut}</pre>`;
}

const ARROW = { sent: '→ sent', received: '← got', closed: '× closed' } as const;
/** The runner's own handshake before the case proper. */
const HANDSHAKE_ARROW = { sent: '→ hello', received: '← hello', closed: '× closed' } as const;

function transcriptBlock(r: CaseResult): string {
  if (!r.transcript?.length) return '';
  const items = r.transcript.map((t) => {
    const limit = HTML_FRAME_CHARS[t.handshake ? 'handshake' : isFinding(r) ? 'finding' : 'other'];
    const long = t.text.length > limit;
    const full = t.length ?? t.text.length;
    const note = long || t.length ? `<span class="muted"> … (${full} characters)</span>` : '';
    return `<li><span class="muted">${t.handshake ? HANDSHAKE_ARROW[t.direction] : (ARROW[t.direction] ?? esc(t.direction))}${r.transcript!.some((x) => x.connection > 1) ? ` #${t.connection}` : ''}</span><pre>${esc(long ? t.text.slice(0, limit) : t.text)}${note}</pre></li>`;
  });
  const more = r.transcriptOmitted ? `<p class="muted">${r.transcriptOmitted} more frames not kept.</p>` : '';
  return `<h4>frames</h4><ol class="transcript">${items.join('')}</ol>${more}`;
}

function caseBlock(r: CaseResult, o: Required<HtmlOptions>): string {
  const c = clauseOf(r.clause);
  const checks = r.checks.map(
    (k) =>
      `<li><span class="${k.ok ? 'ok' : 'bad'}">${k.ok ? '✓' : '✗'}</span> ${esc(k.name)}${k.level === 'should' ? ' <span class="muted">(should)</span>' : ''}${!k.ok && k.detail ? diffBlock(k.detail) : ''}</li>`,
  );
  const text = `${r.id} ${r.description} ${r.reason ?? ''}`.toLowerCase();
  return `<details class="case" id="${attr(caseAnchor(r.id))}" data-verdict="${attr(r.verdict)}" data-area="${attr(areaOf(r))}" data-profile="${attr(r.profile)}" data-text="${attr(text)}"${isFinding(r) ? ' open' : ''}>
<summary>${badge(r.verdict, r.expectedFailure)} <code>${esc(r.id)}</code>${r.reason ? ` <span class="muted">— ${esc(r.reason)}</span>` : ''}</summary>
<dl class="meta"><dt>checks</dt><dd>${esc(r.description)}</dd>
<dt>clause</dt><dd><a href="${safeHref(o.clauseHref(r.clause))}">${esc(r.clause)}</a>${c ? ` ${esc(c.title)} <span class="muted">(${esc(c.layer)})</span>` : ''} · ${esc(r.profile)} profile, ${esc(r.level)}</dd>
<dt>fixture</dt><dd><code>${esc(`${o.fixturesDir.replace(/\/$/, '')}/${r.file}`)}</code></dd>
${r.topic ? `<dt>topic</dt><dd><code>${esc(r.topic)}</code></dd>` : ''}${r.sent ? `<dt>sent</dt><dd>${esc(r.sent)}</dd>` : ''}
<dt>ran</dt><dd>${r.durationMs} ms, ${r.frames} frames received${r.resetMs !== undefined ? `; reset ${r.resetMs} ms, settled ${r.settleMs} ms` : ''}</dd></dl>
${checks.length ? `<h4>checks</h4><ul>${checks.join('')}</ul>` : ''}${transcriptBlock(r)}
</details>`;
}

const SCRIPT = `(function(){var f=document.getElementById('filters'),cs=[].slice.call(document.querySelectorAll('details.case')),out=document.getElementById('shown');
function apply(){var vs={};[].forEach.call(f.querySelectorAll('input[name=verdict]:checked'),function(i){vs[i.value]=1});
var a=f.elements.area.value,p=f.elements.profile.value,q=f.elements.q.value.trim().toLowerCase(),n=0;
cs.forEach(function(c){var ok=!!vs[c.dataset.verdict]&&(!a||c.dataset.area===a)&&(!p||c.dataset.profile===p)&&(!q||c.dataset.text.indexOf(q)>=0);c.hidden=!ok;if(ok)n++});
out.textContent=n+' of '+cs.length+' cases shown'}
f.addEventListener('input',apply);f.addEventListener('change',apply);f.addEventListener('reset',function(){setTimeout(apply,0)});
f.addEventListener('submit',function(e){e.preventDefault()});
document.getElementById('open-all').addEventListener('click',function(){cs.forEach(function(c){if(!c.hidden)c.open=true})});
document.getElementById('close-all').addEventListener('click',function(){cs.forEach(function(c){c.open=false})});
apply()})();`;

export function summaryToHtml(s: RunSummary, opts: HtmlOptions = {}): string {
  const o: Required<HtmlOptions> = {
    fixturesDir: opts.fixturesDir ?? 'conformance/fixtures/v0.1.6',
    clauseHref: opts.clauseHref ?? clauseLink,
  };
  const rs = s.results;
  const impl = s.implementation;
  const title = `IDEA ${s.client ? 'client ' : ''}conformance: ${s.ok ? 'conformant' : 'not conformant'}${impl ? ` — ${impl.name}${impl.build ? ` in ${impl.build}` : ''}` : ''}`;
  const areas = groupBy(rs, areaOf);
  const clauses = [...groupBy(rs, (r) => r.clause)].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
  const profiles = PROFILES.filter((p) => rs.some((r) => r.profile === p));
  const verdictCount = (v: Verdict) => rs.filter((r) => r.verdict === v).length;
  const body = `<header>
<h1><span class="${s.ok ? 'ok' : 'bad'}">${s.ok ? '✓' : '✗'}</span> ${esc(title)}</h1>
<p>${esc(scopeLine(s))}. ${rs.length} ${s.client ? 'scenarios' : 'cases'} in ${(s.durationMs / 1000).toFixed(1)} s.</p>
<dl class="meta">${impl ? `<dt>implementation</dt><dd>${esc(impl.name)}${impl.build ? ` — ${esc(impl.build)}` : ''}</dd>` : ''}
${
  s.client
    ? `<dt>client</dt><dd><code>${esc(s.client.command)}</code>, judged against a scripted server per scenario (${s.client.timeoutMs} ms at most each)</dd>`
    : `<dt>server</dt><dd>announces protocol ${esc(s.server.version)}${s.version !== s.server.version ? `; cases and schemas applied by ${esc(s.version)} (${esc(s.versionSource)})` : ''}; ${s.server.authRequired ? 'token required' : 'no token'}; ${s.server.capabilities.length} capabilities</dd>
<dt>url</dt><dd><code>${esc(s.url)}</code></dd>`
}<dt>started</dt><dd>${esc(s.startedAt)}</dd>
<dt>expected failures</dt><dd>${rs.filter((r) => r.expectedFailure).length}; stale entries: ${s.stale.length}</dd></dl>
${s.warnings.length ? `<ul>${s.warnings.map((w) => `<li>⚠ ${esc(w)}</li>`).join('')}</ul>` : ''}${s.stale.length ? `<ul>${s.stale.map((w) => `<li class="bad">✗ stale expected failure: ${esc(w)}</li>`).join('')}</ul>` : ''}
</header>
<main>
<h2 id="by-profile">By profile</h2>
<div class="scroll"><table><thead>${countHead('<th scope="col">profile</th>')}</thead><tbody>
${profiles.map((p) => `<tr><th scope="row">${esc(p)}</th>${countRow(rs.filter((r) => r.profile === p))}</tr>`).join('\n')}
<tr><th scope="row">all</th>${countRow(rs)}</tr></tbody></table></div>
<h2 id="by-topic">By topic</h2>
<div class="scroll"><table><thead>${countHead('<th scope="col">topic</th>')}</thead><tbody>
${[...areas].map(([a, x]) => `<tr><th scope="row">${esc(a)}</th>${countRow(x)}</tr>`).join('\n')}</tbody></table></div>
<details><summary><h2 id="by-clause" style="display:inline">By clause</h2> <span class="muted">(${clauses.length} clauses)</span></summary>
<div class="scroll"><table><thead>${countHead('<th scope="col">clause</th><th scope="col">title</th>')}</thead><tbody>
${clauses.map(([id, x]) => `<tr><th scope="row"><a href="${safeHref(o.clauseHref(id))}">${esc(id)}</a></th><td>${esc(clauseOf(id)?.title ?? '')}</td>${countRow(x)}</tr>`).join('\n')}</tbody></table></div></details>
${coverageSection(s, o.clauseHref)}
<h2 id="cases">Cases</h2>
<form id="filters" class="filters" role="search" aria-label="Filter cases">
<fieldset><legend>verdict</legend>${VERDICTS.map((v) => `<label><input type="checkbox" name="verdict" value="${v}" checked> <span class="v v-${v}">${VERDICT_ICON[v]} ${v}</span> (${verdictCount(v)})</label>`).join('')}</fieldset>
<label>topic <select name="area"><option value="">all topics</option>${[...areas].map(([a, x]) => `<option value="${attr(a)}">${esc(a)} (${x.length})</option>`).join('')}</select></label>
<label>profile <select name="profile"><option value="">all profiles</option>${profiles.map((p) => `<option value="${attr(p)}">${esc(p)}</option>`).join('')}</select></label>
<label>text <input type="search" name="q" placeholder="id, description, reason"></label>
<button type="button" id="open-all">Open shown</button><button type="button" id="close-all">Close all</button><button type="reset">Clear filters</button>
<output id="shown" aria-live="polite"></output>
</form>
${rs.map((r) => caseBlock(r, o)).join('\n')}
</main>`;
  return page(title, body, SCRIPT);
}

/** A clause link as seen from the HTML file: relative to its folder, or file:// for an absolute target elsewhere. */
export function clauseHrefFrom(outFile: string): (id: string) => string {
  const dir = dirname(resolve(outFile));
  return (id) => {
    const [doc, anchor] = clauseLink(id).split('#') as [string, string];
    const target = isAbsolute(doc) ? doc : resolve(doc);
    return `${relative(dir, target).split('\\').join('/')}#${anchor}`;
  };
}

export class HtmlReporter implements Reporter {
  constructor(
    private readonly path: string,
    private readonly fixturesDir?: string,
  ) {}
  onRunEnd(s: RunSummary): void {
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileSync(
      this.path,
      summaryToHtml(s, { fixturesDir: this.fixturesDir, clauseHref: clauseHrefFrom(this.path) }),
    );
  }
}
