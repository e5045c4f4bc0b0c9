// Case selection: id globs, topics (full "/app/vscode/edit/find", short "edit/find" or area "protocol"),
// protocol version (cases whose `since` is newer are left out), a set of ids (--last-failed) and profiles.
import { compareVersions } from '@idea-kit/spec-lib/version';
import type { Profile } from './clauses';
import type { LoadedCase } from './types';

export interface Selection {
  /** Keep cases of these profiles (core, readings, security). */
  profiles?: readonly Profile[];
  ids?: string[];
  topics?: string[];
  /** Keep cases that apply to this protocol version (since ≤ version). */
  version?: string;
  only?: Set<string>;
}

function globToRegExp(glob: string): RegExp {
  const re = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*/g, '\u0000')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]')
    .replace(/\u0000/g, '.*');
  return new RegExp(`^${re}$`);
}

function topicMatches(lc: LoadedCase, wanted: string): boolean {
  const w = wanted.replace(/^\/app\/vscode\//, '').replace(/^\//, '');
  const t = lc.topic?.replace(/^\/app\/vscode\//, '');
  return t === w || lc.area === w || lc.area === w.replace('/', '-');
}

export function selectCases(cases: LoadedCase[], sel: Selection): LoadedCase[] {
  const idRes = sel.ids?.map(globToRegExp);
  return cases.filter((lc) => {
    if (idRes?.length && !idRes.some((r) => r.test(lc.case.id))) return false;
    if (sel.topics?.length && !sel.topics.some((t) => topicMatches(lc, t))) return false;
    if (sel.version && compareVersions(lc.case.since, sel.version) > 0) return false;
    if (sel.only && !sel.only.has(lc.case.id)) return false;
    if (sel.profiles && !sel.profiles.includes(lc.profile)) return false;
    return true;
  });
}
