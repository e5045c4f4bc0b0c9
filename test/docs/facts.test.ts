// The docs state facts the code can check: how many conformance cases there are (per area and per
// profile), and which files exist. A figure typed by hand goes stale silently; here it goes red.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURES, loadCases } from '../../conformance/lib/load';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
// The served version's cases: what the runner loads by default and what the docs count.
const manifest = JSON.parse(readFileSync(join(DEFAULT_FIXTURES, 'manifest.json'), 'utf8')) as {
  count: number;
  byArea: Record<string, number>;
};
const cases = loadCases();

/** The hand-written docs: tracked Markdown outside generated/ and the frozen spec folders; the changelog records history. */
const docs = execFileSync('git', ['ls-files', '*.md', '**/*.md'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !/^(generated|spec)\//.test(f) && !f.endsWith('CHANGELOG.md') && existsSync(join(ROOT, f)));

/** Lines of a doc, numbered, outside fenced code blocks (examples there are not claims). */
function proseLines(file: string): [number, string][] {
  let fenced = false;
  return readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .flatMap((line, i): [number, string][] => {
      if (/^\s*```/.test(line)) {
        fenced = !fenced;
        return [];
      }
      return fenced ? [] : [[i + 1, line]];
    });
}

describe('conformance case counts in the docs', () => {
  it('the manifest counts the cases the runner loads', () => {
    expect(manifest.count).toBe(cases.length);
  });

  it('every "N cases" in the docs is the current count, but dated measurements and the bench records', () => {
    // A line carrying a date, and bench/ (every run there is dated in its heading), record what a run
    // measured at the time: their counts are history, not claims about today.
    const wrong: string[] = [];
    for (const file of docs.filter((f) => !f.startsWith('bench/'))) {
      for (const [n, line] of proseLines(file)) {
        if (/\b20\d\d-\d\d-\d\d\b/.test(line)) continue;
        for (const m of line.matchAll(/\b(\d[\d,]*) (?:conformance |fixture )?cases\b(?! carry)|\bCases \((\d+)\)/g)) {
          const said = Number((m[1] ?? m[2])!.replace(/,/g, ''));
          if (said !== manifest.count)
            wrong.push(`${file}:${n}: says ${said}, there are ${manifest.count}: ${line.trim()}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('conformance/README.md counts each area and each profile as the fixtures do', () => {
    const readme = readFileSync(join(ROOT, 'conformance/README.md'), 'utf8');
    const section = readme.slice(
      readme.indexOf('## Cases ('),
      readme.indexOf('\n## ', readme.indexOf('## Cases (') + 1),
    );
    // Table cells `| area | n |`, and the one row that lists three areas as `a / -b / -c | x / y / z`.
    const stated: Record<string, number> = {};
    for (const m of section.matchAll(/\|\s*([a-z-]+(?: \/ -[a-z]+)*)\s*\|\s*(\d[\d /]*?)\s*\|/g)) {
      const names = m[1]!.split(' / ');
      const counts = m[2]!.split('/').map((x) => Number(x.trim()));
      const head = names[0]!.replace(/-[a-z]+$/, '');
      names.forEach((name, i) => {
        stated[name.startsWith('-') ? head + name : name] = counts[i]!;
      });
    }
    expect(stated).toEqual(manifest.byArea);

    const by = (profile: string, level?: string) =>
      cases.filter((c) => c.profile === profile && (!level || c.level === level)).length;
    const prefer = cases.filter((c) => c.case.kind === 'request' && c.case.prefer).length;
    const sec = `${by('security')} security (${by('security', 'must')} must, ${by('security', 'should')} should)`;
    expect(section).toContain(
      `By profile: ${by('core')} core (must), ${by('readings')} readings (should), ${sec}; ${prefer} cases carry an`,
    );
  });
});

/**
 * Words of a work log rather than of the docs: an issue's number, "this branch", a round of work. They
 * mean nothing to a reader who was not there (a measurement's "6 rounds × 20" and a round trip are fine).
 */
const WORK_LOG =
  /\bissues?\s+#?\d+|\bthis branch\b|\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\s+rounds?\b|\bround\s+\d+\b|\b(?:this|that|the|each|next|previous|last)\s+round\b(?![ -]trips?)|'s rounds\b/i;

describe('the docs speak to a reader, not from a work log', () => {
  it('the rule sees what it must and passes what it must', () => {
    for (const bad of [
      'an editor (issue 19)',
      'Issue #6',
      'issues 19 and 21',
      'after: this branch at load 6',
      'Round 2 (the nav stages)',
      'fixed in the fourth round',
      'First run of this round',
      "as issue 19's rounds found",
    ])
      expect(bad).toMatch(WORK_LOG);
    for (const good of [
      'p50 round trip',
      'the round trip',
      'the round-trip section',
      '6 rounds × 20 per side',
      'round-robin',
    ])
      expect(good).not.toMatch(WORK_LOG);
  });

  it('no hand-written doc names an issue, "this branch" or a round of work', () => {
    const found: string[] = [];
    for (const file of docs)
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const m = WORK_LOG.exec(line);
          if (m) found.push(`${file}:${i + 1}: "${m[0]}" in: ${line.trim().slice(0, 120)}`);
        });
    expect(found).toEqual([]);
  });
});

/** Top-level folders of the repository. */
const TOP = new Set(
  execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.includes('/'))
    .map((f) => f.split('/')[0]!),
);

describe('paths in the docs', () => {
  it('every relative link and every repository path in backticks names a file or folder that exists', () => {
    const missing: string[] = [];
    // Built, installed or per-user locations, and placeholders: not in a clone by design.
    const skip = /(^|\/)(dist|node_modules|reports|\.idea-conformance)(\/|$)|^~|[<>*${}]|\.\.\.|…/;
    for (const file of docs) {
      const here = dirname(file);
      for (const [n, line] of proseLines(file)) {
        for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
          const target = m[1]!.split('#')[0]!;
          if (!target || /^[a-z]+:/.test(target) || skip.test(target)) continue;
          if (!existsSync(join(ROOT, here, decodeURIComponent(target)))) missing.push(`${file}:${n}: link ${m[1]}`);
        }
        // A path in backticks that starts at a top-level folder of the repository (`test/…`, `runtime/…`);
        // other paths in the docs are inside a workspace, a temp folder or a package, not the clone.
        for (const m of line.matchAll(/`([a-z0-9_.-]+)\/([A-Za-z0-9_./-]*)`/g)) {
          const p = `${m[1]}/${m[2]}`;
          if (!TOP.has(m[1]!) || skip.test(p)) continue;
          if (!existsSync(join(ROOT, p))) missing.push(`${file}:${n}: path ${p}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
