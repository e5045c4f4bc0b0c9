// The two writers of spec/releases.json: `release` freezes a version (its date and hash), `amend`
// records a deliberate correction of a released folder (errata). Both then regenerate what shows
// the record: the version's generated code (protocol.md carries the date) and the changelog.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SCHEMA_MAP_KEYWORDS } from '@idea-kit/spec-lib/keywords';
import { assertSpecClean } from '@idea-kit/spec-lib/lint';
import { type Amendment, type Release, readReleases } from '@idea-kit/spec-lib/releases';
import {
  CLAUSES_FILE,
  isObject,
  type Json,
  listFiles,
  loadSpec,
  readJson,
  type Spec,
  SUMMARY_FILE,
} from '@idea-kit/spec-lib/spec';
import { normalizeVersion, versionFolder } from '@idea-kit/spec-lib/version';
import { formatReport } from './diff/format';
import { diffVersions } from './diff/version-diff';
import { writeReleases } from './frozen';
import { releasedContents } from './release-history';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function dateOrToday(date: string | undefined): string {
  const d = date ?? new Date().toISOString().slice(0, 10);
  if (!DATE.test(d) || Number.isNaN(Date.parse(d)))
    throw new Error(`not a date: ${JSON.stringify(d)} (expected YYYY-MM-DD)`);
  return d;
}

/**
 * Words by which a version's text calls it unreleased: "draft" (not JSON Schema's "draft 2020-12" or
 * "draft-07", nor the handshake field written as `draft` or "draft"), "not released", "not yet
 * released", "unreleased", "pre-release". Each as written, once.
 */
export function draftWords(text: string): string[] {
  const re =
    /(?<![`"'])\bdraft\b(?![`"':]|[- ]?(?:\d{4}-\d{2}|0\d)\b)|\bnot\s+(?:yet\s+)?released\b|\bunreleased\b|\bpre-?release\b/gi;
  return [...new Set(text.match(re) ?? [])];
}

/**
 * Records `version` as released on `date` (default today, UTC) with its folder's hash. Refused for a
 * version released already (a released folder changes only through amend), without a SUMMARY.md,
 * whose index.json carries a date of its own, or whose index.json description calls it a draft.
 */
export function recordRelease(specRoot: string, version: string, opts: { date?: string } = {}): Release {
  const v = normalizeVersion(version);
  const spec = loadSpec(specRoot, v);
  assertSpecClean(specRoot, spec); // a folder codegen would refuse is never frozen
  const all = readReleases(specRoot);
  const existing = all.releases.find((r) => r.version === v);
  if (existing) {
    const same = existing.sha256 === spec.hash;
    throw new Error(
      `v${v} is already released (${existing.released})${same ? '' : ' with other contents: released versions are frozen; record a correction of its text with idea-spec amend'}`,
    );
  }
  if (spec.index.released !== undefined)
    throw new Error(`spec/v${v}/index.json has "released": remove it, the date goes to spec/releases.json only`);
  const words = draftWords(spec.index.description ?? '');
  if (words.length)
    throw new Error(
      `spec/v${v}/index.json: its description calls the version a draft (${words.map((w) => JSON.stringify(w)).join(', ')}): say what the released version is first (once released, its text changes only through idea-spec amend)`,
    );
  if (!spec.summary)
    throw new Error(
      `spec/v${v}/${SUMMARY_FILE} is missing or empty: write the version's summary for the changelog first (a few lines of Markdown)`,
    );
  const entry: Release = { version: v, released: dateOrToday(opts.date), sha256: spec.hash };
  writeReleases(specRoot, { ...all, releases: [...all.releases, entry] });
  return entry;
}

export interface AmendOptions {
  reason: string;
  /** Accept changes beyond annotations (description, title, examples, $comment). */
  allowSemantic?: boolean;
  /** Default today (UTC). */
  date?: string;
}

/** Keywords that annotate and never constrain: an amendment may change only these (and SUMMARY.md). */
const ANNOTATIONS = new Set(['description', 'title', 'examples', '$comment']);

function withoutAnnotations(x: Json, inNameMap = false): Json {
  if (Array.isArray(x)) return x.map((y) => withoutAnnotations(y));
  if (!isObject(x)) return x;
  const out: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(x)) {
    if (!inNameMap && ANNOTATIONS.has(k)) continue;
    out[k] = withoutAnnotations(v, !inNameMap && SCHEMA_MAP_KEYWORDS.has(k)); // a map's keys are names, not keywords
  }
  return out;
}

/**
 * What changed beyond annotations between the released contents and the folder now: files added or
 * removed, JSON that differs once annotations are dropped, and every change the diff engine reports
 * (it also reads conditions stated in prose, e.g. "Required when …", which count as semantic).
 */
function semanticChanges(released: Spec, now: Spec): string[] {
  const out: string[] = [];
  // SUMMARY.md and clauses.json are documentation like a description (prose; clauses validate
  // nothing): they may be written or corrected after the release.
  const docs = new Set([SUMMARY_FILE, CLAUSES_FILE]);
  const a = new Set(listFiles(released.dir).filter((f) => !docs.has(f)));
  const b = new Set(listFiles(now.dir).filter((f) => !docs.has(f)));
  for (const f of b) if (!a.has(f)) out.push(`file added: ${f}`);
  for (const f of a) if (!b.has(f)) out.push(`file removed: ${f}`);
  for (const f of a) {
    if (!b.has(f) || !f.endsWith('.json')) continue;
    const x = JSON.stringify(withoutAnnotations(readJson(join(released.dir, f))));
    const y = JSON.stringify(withoutAnnotations(readJson(join(now.dir, f))));
    if (x !== y) out.push(`${f}: changed beyond description/title/examples/$comment`);
  }
  const report = diffVersions(released, now);
  if (report.changes.length > 0) out.push(formatReport(report, 'text', 'INFO').trimEnd());
  return out;
}

/**
 * Records the changed contents of released spec/v<version>/ as an amendment: the new hash replaces
 * the old one, which is kept with the date and reason. Unless `allowSemantic`, the released contents
 * are looked up in git by their recorded hash and anything beyond annotations is refused.
 */
export function amendRelease(
  specRoot: string,
  version: string,
  opts: AmendOptions,
): { entry: Release; amendment: Amendment } {
  const v = normalizeVersion(version);
  const reason = opts.reason.trim();
  if (!reason)
    throw new Error('amend needs --reason "…" (why the released text is corrected; it goes into the changelog)');
  const all = readReleases(specRoot);
  const entry = all.releases.find((r) => r.version === v);
  if (!entry)
    throw new Error(`v${v} is not released: edit spec/v${v} directly (amend is for released, frozen versions)`);
  const now = loadSpec(specRoot, v);
  if (now.hash === entry.sha256)
    throw new Error(`spec/v${v} is unchanged since its release (sha256 ${entry.sha256}): nothing to amend`);
  assertSpecClean(specRoot, now); // an amendment codegen would refuse is never recorded
  if (!opts.allowSemantic) {
    const files = releasedContents(specRoot, v, entry.sha256);
    if (!files) {
      throw new Error(
        `cannot check that only annotations of v${v} change: no commit has spec/v${v} at its recorded sha256 ${entry.sha256} (not in git?); --allow-semantic records the amendment without that check`,
      );
    }
    const changes = withReleasedCopy(v, files, (released) => semanticChanges(released, now));
    if (changes.length > 0) {
      throw new Error(
        `the amendment of v${v} changes more than annotations (description, title, examples, $comment):\n  ${changes.join('\n  ')}\nA change of the protocol belongs in a new version (idea-spec bump); --allow-semantic records it as an amendment anyway`,
      );
    }
  }
  const amendment: Amendment = { date: dateOrToday(opts.date), reason, previousSha256: entry.sha256 };
  const amended: Release = { ...entry, sha256: now.hash, amendments: [...(entry.amendments ?? []), amendment] };
  writeReleases(specRoot, { ...all, releases: all.releases.map((r) => (r.version === v ? amended : r)) });
  return { entry: amended, amendment };
}

/** Writes `files` as spec/v<version>/ in a temp dir, loads it, and hands it to `fn`. */
function withReleasedCopy<T>(version: string, files: Map<string, string>, fn: (spec: Spec) => T): T {
  const root = mkdtempSync(join(tmpdir(), 'idea-spec-released-'));
  try {
    for (const [rel, text] of files) {
      const path = join(root, versionFolder(version), rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
    return fn(loadSpec(root, version));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
