// The HTML report in a real browser (headless Chromium): built by the reporter from a real run of all
// 186 cases against the in-test server (most topics answer with an error there, so there are diffs to
// show), its DOM must agree with the JSON report of the same run, filters and keyboard must work, a
// narrow window must not scroll sideways, and frames from a hostile server must stay text.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../conformance/lib/load';
import { selectCases } from '../../conformance/lib/select';
import { runAgainstServer } from '../../conformance/lib/session';
import { createReporter } from '../../conformance/reporters';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { launchChromium } from './html-browser';
import { startInTestServer, TEST_TOKEN } from './in-test-server';

const REPORTS = new URL('../../reports/', import.meta.url).pathname;
const HOSTILE = `</pre></details><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"><a href="javascript:window.__pwned=3">x</a>'"&amp;`;

interface JsonReport {
  counts: Record<string, number>;
  cases: { id: string; verdict: string; profile: string }[];
}

let tmp: string;
let browser: Browser;
let report: { html: string; json: JsonReport };
let hostile: { html: string };

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'conformance-html-'));
  const ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
  const all = loadCases();
  const run = async (
    name: string,
    cases: typeof all,
    opts: Parameters<typeof startInTestServer>[2],
    implementation: { name: string; build?: string },
  ) => {
    const server = await startInTestServer(ws, {}, opts);
    const files = { html: join(tmp, `${name}.html`), json: join(tmp, `${name}.json`) };
    try {
      await runAgainstServer({
        url: server.url,
        token: TEST_TOKEN,
        workspace: ws,
        cases,
        settleTimeoutMs: 0,
        implementation,
        reporters: [createReporter(`html:${files.html}`), createReporter(`json:${files.json}`)],
      });
    } finally {
      await server.close();
    }
    return files;
  };
  const full = await run('full', all, {}, { name: 'in-test server', build: 'idea-kit runtime session' });
  report = { html: full.html, json: JSON.parse(readFileSync(full.json, 'utf8')) as JsonReport };
  // A hostile server: its answers and error messages carry markup, and so does the name it is given.
  const fail = async () => {
    throw new Error(HOSTILE);
  };
  const h = await run(
    'hostile',
    selectCases(all, { ids: ['history-list/*', 'fs-findfiles/*', 'protocol/*'] }),
    {
      handlers: {
        historyList: async () => ({
          entries: [
            {
              index: 1,
              hash: HOSTILE,
              shortHash: HOSTILE,
              message: HOSTILE,
              authorName: HOSTILE,
              authorEmail: HOSTILE,
              authorDate: HOSTILE,
            },
          ],
          totalCount: 1,
        }),
        fsFindFiles: fail,
      },
    },
    { name: HOSTILE, build: HOSTILE },
  );
  hostile = { html: h.html };
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function open(file: string, width = 1200, height = 900): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Everything is inline: any request beyond the file itself is a bug.
  page.on('request', (r) => {
    if (r.url() !== pathToFileURL(file).href) errors.push(`request ${r.url()}`);
  });
  await page.goto(pathToFileURL(file).href);
  (page as Page & { errors: string[] }).errors = errors;
  return page;
}

// Browser-side code is written as strings: the repository's TypeScript has no DOM types.
const inPage = <T>(page: Page, js: string) => page.evaluate(js) as Promise<T>;
const visibleCases = (page: Page) => page.locator('details.case:not([hidden])').count();

describe('HTML report (headless Chromium)', () => {
  it('is one self-contained file of at most 2.5 kB a case; neither it nor the JSON report has the token', () => {
    const html = readFileSync(report.html, 'utf8');
    const json = readFileSync(report.html.replace(/\.html$/, '.json'), 'utf8');
    expect(json).toContain('‹redacted›');
    expect(json).not.toContain(TEST_TOKEN.slice(0, -1));
    // Per case, not a total: the suite grows with each version (192 cases in 0.1.6, 232 in 0.1.7).
    const cases = (JSON.parse(json) as { cases: unknown[] }).cases.length;
    expect(cases).toBeGreaterThan(0);
    expect(statSync(report.html).size / cases).toBeLessThanOrEqual(2.5 * 1024);
    expect(html).not.toMatch(/<(?:link|img|iframe)\b|src=|@import|url\(/i);
    expect(html).not.toContain(TEST_TOKEN);
    expect(html).not.toContain(TEST_TOKEN.slice(0, -1));
    expect(report.json.cases).toHaveLength(loadCases().length);
  });

  it('shows the same cases and counts as the JSON report of the run', async () => {
    const page = await open(report.html);
    const dom = await inPage<unknown[]>(
      page,
      `[...document.querySelectorAll('details.case')].map((d) => ({ id: d.querySelector('summary code').textContent, verdict: d.dataset.verdict, profile: d.dataset.profile }))`,
    );
    expect(dom).toEqual(report.json.cases.map((c) => ({ id: c.id, verdict: c.verdict, profile: c.profile })));
    // The "all" row of the profile table: cases, then one column per verdict.
    const all = await inPage<number[]>(
      page,
      `[...document.querySelectorAll('#by-profile + .scroll tbody tr:last-child td')].map((t) => Number(t.textContent || 0))`,
    );
    const counts = report.json.counts;
    expect(all).toEqual([
      report.json.cases.length,
      counts.pass,
      counts.fail,
      counts.warn,
      counts.error,
      counts.skip,
      counts.unimplemented,
    ]);
    expect(counts.fail! + counts.pass!).toBeGreaterThan(100);
    // Each failing case shows its diff and the frames it exchanged; each has its clause link and fixture file.
    const failing = await inPage<{ diff: boolean; frames: number; link: string; fixture: string }[]>(
      page,
      `[...document.querySelectorAll('details.case[data-verdict=fail]')].map((d) => ({ diff: !!d.querySelector('pre del, pre ins'), frames: d.querySelectorAll('ol.transcript li').length, link: d.querySelector('dl a').getAttribute('href'), fixture: d.querySelector('dl code').textContent }))`,
    );
    expect(failing.length).toBe(counts.fail);
    expect(failing.filter((f) => f.frames > 0)).toHaveLength(failing.length);
    expect(failing.filter((f) => f.diff).length).toBeGreaterThan(0);
    for (const f of failing) {
      expect(f.link).toMatch(/protocol\.md#clause-[a-z]+\d+$/);
      expect(f.fixture).toMatch(/^conformance\/fixtures\/v0\.1\.6\/.+\.json$/);
    }
    expect((page as Page & { errors: string[] }).errors).toEqual([]);
    await page.close();
  });

  it('filters by verdict, topic, profile and text', async () => {
    const page = await open(report.html);
    const { counts, cases } = report.json;
    const total = cases.length;
    expect(await page.textContent('#shown')).toBe(`${total} of ${total} cases shown`);
    await page.uncheck('input[name=verdict][value=pass]');
    expect(await visibleCases(page)).toBe(total - counts.pass!);
    // A topic with cases on both sides of the verdict filter.
    const area = [...new Set(cases.map((c) => c.id.split('/')[0]!))].find(
      (a) =>
        cases.some((c) => c.id.startsWith(`${a}/`) && c.verdict === 'pass') &&
        cases.some((c) => c.id.startsWith(`${a}/`) && c.verdict !== 'pass'),
    )!;
    await page.selectOption('select[name=area]', area);
    expect(await visibleCases(page)).toBe(
      cases.filter((c) => c.id.startsWith(`${area}/`) && c.verdict !== 'pass').length,
    );
    expect(await visibleCases(page)).toBeGreaterThan(0);
    await page.click('button[type=reset]');
    await page.selectOption('select[name=profile]', 'security');
    expect(await visibleCases(page)).toBe(cases.filter((c) => c.profile === 'security').length);
    await page.fill('input[name=q]', 'oversize');
    expect(await visibleCases(page)).toBe(
      cases.filter((c) => c.profile === 'security' && c.id.includes('oversize')).length,
    );
    expect(await visibleCases(page)).toBeGreaterThan(0);
    await page.close();
  });

  it('is usable by keyboard alone: filters reachable by Tab, focus visible, cases open with Enter', async () => {
    const page = await open(report.html);
    const reached: string[] = [];
    for (let i = 0; i < 16; i++) {
      await page.keyboard.press('Tab');
      reached.push(
        await inPage<string>(
          page,
          `(() => { const e = document.activeElement;
        return e.tagName.toLowerCase() + (e.name ? '[' + e.name + (e.type === 'checkbox' ? '=' + e.value : '') + ']' : e.id ? '#' + e.id : ''); })()`,
        ),
      );
    }
    for (const want of [
      'input[verdict=pass]',
      'input[verdict=fail]',
      'select[area]',
      'select[profile]',
      'input[q]',
      'button#open-all',
    ])
      expect(reached).toContain(want);
    // Back to the pass checkbox; its focus ring is drawn; Space toggles the filter.
    await page.focus('input[name=verdict][value=pass]');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await inPage<string>(page, 'getComputedStyle(document.activeElement).outlineStyle')).not.toBe('none');
    await page.keyboard.press('Space');
    expect(await visibleCases(page)).toBe(report.json.cases.length - report.json.counts.pass!);
    // A case's summary is a real control: Enter opens and closes it.
    const id = report.json.cases.find((c) => c.verdict === 'pass')!.id;
    await page.keyboard.press('Space');
    const summary = `details.case[id="case-${id.replace(/[^A-Za-z0-9_-]/g, '-')}"] > summary`;
    await page.focus(summary);
    const isOpen = () => page.locator(summary).evaluate((s) => (s.parentElement as unknown as { open: boolean }).open);
    const before = await isOpen();
    await page.keyboard.press('Enter');
    expect(await isOpen()).toBe(!before);
    await page.screenshot({ path: join(REPORTS, 'conformance-html.png') });
    await page.close();
  });

  it('reads in a narrow window without scrolling sideways', async () => {
    const page = await open(report.html, 375, 800);
    const widths = await inPage<{ page: number; view: number }>(
      page,
      '({ page: document.documentElement.scrollWidth, view: window.innerWidth })',
    );
    expect(widths.page).toBeLessThanOrEqual(widths.view);
    await page.screenshot({ path: join(REPORTS, 'conformance-html-narrow.png') });
    await page.close();
  });

  it('keeps a hostile server’s frames and names as text', async () => {
    const html = readFileSync(hostile.html, 'utf8');
    expect(html).not.toContain('<script>window.__pwned');
    const page = await open(hostile.html);
    const seen = await inPage<{
      pwned?: number;
      scripts: number;
      imgs: number;
      jsLinks: number;
      text: string;
      cases: number;
    }>(
      page,
      `({
      pwned: window.__pwned,
      scripts: document.scripts.length,
      imgs: document.images.length,
      jsLinks: [...document.querySelectorAll('a')].filter((a) => (a.getAttribute('href') || '').startsWith('javascript:')).length,
      text: document.body.textContent || '',
      cases: document.querySelectorAll('details.case').length,
    })`,
    );
    expect(seen).toMatchObject({ pwned: undefined, scripts: 1, imgs: 0, jsLinks: 0 });
    // The markup is on the page as the text it was, in the header (the name) and in the frames and diffs.
    expect(seen.text.split(HOSTILE).length - 1).toBeGreaterThan(3);
    expect(seen.cases).toBeGreaterThan(10);
    expect((page as Page & { errors: string[] }).errors).toEqual([]);
    await page.close();
  });
});

describe('docs screenshot', () => {
  // reports/conformance-report.png is what docs/images/conformance-report.png is copied from (README: how to regenerate).
  it('shows the findings of one topic in a real report, small enough for the docs', async () => {
    const page = await open(report.html, 1000, 760);
    await page.uncheck('input[name=verdict][value=pass]');
    await page.selectOption('select[name=area]', 'diag-list');
    await page.locator('#cases').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(REPORTS, 'conformance-report.png') });
    expect(statSync(join(REPORTS, 'conformance-report.png')).size).toBeLessThanOrEqual(200 * 1024);
    await page.close();
  });
});
