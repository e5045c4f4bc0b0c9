// idea-spec bump: the next protocol version starts as a copy of the latest one with only its identity
// changed — every schema's `$id` (and absolute `$ref`s into the old version) and the index's own
// `version`. Nothing else is rewritten: `since` values, examples and prose keep what they say; the
// mentions of the old version left in the copy are listed for the maintainer to review. The copy has
// no release date and no SUMMARY.md (both come at release). Then codegen and the changelog.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readReleases } from '@idea-kit/spec-lib/releases';
import {
  formatJson,
  ID_BASE,
  isObject,
  type Json,
  listFiles,
  loadSpec,
  SUMMARY_FILE,
  schemaId,
  specVersions,
  versionDir,
} from '@idea-kit/spec-lib/spec';
import { compareVersions, nextPatch, normalizeVersion, versionFolder } from '@idea-kit/spec-lib/version';
import { codegenMissing, regenerate } from './regenerate';
import { specDir } from './spec-repo';

export interface BumpOptions {
  /** Target version; default: the latest version's next patch. */
  version?: string | undefined;
  /** Run codegen for the new version (default true). */
  codegen?: boolean;
  /** Bump even when the latest version is not released yet. */
  force?: boolean;
  log?: (s: string) => void;
}

export interface BumpResult {
  version: string;
  from: string;
  /** Places in the copy that still name the old version (prose, examples): left as they are, to review. */
  mentions: string[];
}

export async function bump(root: string, opts: BumpOptions = {}): Promise<BumpResult> {
  const spec = specDir(root);
  const from = specVersions(spec).at(-1);
  if (!from) throw new Error('no spec version to bump from');
  const version = normalizeVersion(opts.version ?? nextPatch(from));
  if (compareVersions(version, from) <= 0) throw new Error(`v${version} is not newer than the latest version v${from}`);
  if (existsSync(versionDir(spec, version))) throw new Error(`spec/v${version} already exists`);
  const released = readReleases(spec).releases;
  if (released.some((r) => r.version === version))
    throw new Error(
      `v${version} is in spec/releases.json already (its folder is missing: restore it, a release is never undone)`,
    );
  if (!opts.force && !released.some((r) => r.version === from)) {
    throw new Error(
      `v${from} is not released yet: edit it, or record its release first (idea-spec release ${from}); --force bumps anyway`,
    );
  }
  const missing = opts.codegen !== false ? codegenMissing(root) : undefined;
  if (missing) throw new Error(missing); // before the copy: a failing bump writes nothing
  const srcDir = versionDir(spec, from);
  const dstDir = versionDir(spec, version);
  const mentions: string[] = [];
  for (const rel of listFiles(srcDir)) {
    if (rel === SUMMARY_FILE) continue; // the old version's summary; the new one is written before its release
    const text = readFileSync(join(srcDir, rel), 'utf8');
    const out = join(dstDir, rel);
    mkdirSync(dirname(out), { recursive: true });
    if (!rel.endsWith('.json')) {
      writeFileSync(out, text);
      continue;
    }
    const doc = moveIdentity(rel, JSON.parse(text) as Json, from, version);
    mentions.push(...mentionsOf(doc, from).map((m) => `spec/${versionFolder(version)}/${rel} ${m}`));
    writeFileSync(out, formatJson(doc));
  }
  loadSpec(spec, version); // the copy must load as the new version ($ids, index version)
  const log = opts.log ?? (() => {});
  log(`copied spec/v${from} → spec/v${version} ($ids and version changed; nothing else)\n`);
  if (mentions.length > 0)
    log(`still naming ${from} (review by hand; since values are left alone on purpose):\n  ${mentions.join('\n  ')}\n`);
  for (const line of regenerate(root, version, { codegen: opts.codegen !== false })) log(`${line}\n`);
  return { version, from, mentions };
}

/** The version identity of one document: `$id`, absolute `$ref`s into the old version, index `version`. */
function moveIdentity(rel: string, doc: Json, from: string, to: string): Json {
  if (!isObject(doc)) return doc;
  if (rel === 'index.json') {
    doc.version = to;
    delete doc.released; // dates live in spec/releases.json, written at release
    return doc;
  }
  const oldBase = `${ID_BASE}${versionFolder(from)}/`;
  const walk = (x: Json): void => {
    if (Array.isArray(x)) return x.forEach(walk);
    if (!isObject(x)) return;
    for (const [k, v] of Object.entries(x)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(oldBase)) x[k] = schemaId(to, v.slice(oldBase.length));
      else walk(v);
    }
  };
  walk(doc);
  if (typeof doc.$id === 'string') doc.$id = schemaId(to, rel);
  return doc;
}

/** JSON pointers (with the text) of strings still naming `from`: equal to it, or "v<from>" in prose; `since` excluded. */
function mentionsOf(doc: Json, from: string): string[] {
  const mention = new RegExp(`(?<![\\w.])v${from.replace(/\./g, '\\.')}(?!\\d)`);
  const out: string[] = [];
  const walk = (x: Json, at: string, key: string): void => {
    if (typeof x === 'string') {
      if (key !== 'since' && (x === from || mention.test(x)))
        out.push(`${at || '/'}: ${JSON.stringify(x.length > 60 ? `${x.slice(0, 57)}...` : x)}`);
    } else if (Array.isArray(x)) {
      for (const [i, y] of x.entries()) walk(y, `${at}/${i}`, key);
    } else if (isObject(x))
      for (const [k, v] of Object.entries(x)) walk(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, k);
  };
  walk(doc, '', '');
  return out;
}
