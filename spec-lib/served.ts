// The protocol version idea-kit's programs serve and speak: spec/served.json, the one hand-written line
// that names it. Not "the newest folder": a draft version may sit in spec/ for weeks before it is
// served, and serving it is a decision of its own (docs/maintainers.md).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isObject, readJson, specVersions } from './spec';
import { isVersion, normalizeVersion, type Version, versionFolder } from './version';

export const SERVED_FILE = 'served.json';

/** The served version ("0.1.6"); throws when served.json is missing, malformed or names no spec folder. */
export function servedVersion(specRoot: string): Version {
  const path = join(specRoot, SERVED_FILE);
  if (!existsSync(path))
    throw new Error(`${path} is missing: it names the protocol version the programs serve, {"version": "<x.y.z>"}`);
  const doc = readJson(path);
  const v = isObject(doc) ? doc.version : undefined;
  if (typeof v !== 'string' || !isVersion(v)) throw new Error(`${path}: expected {"version": "<x.y.z>"}`);
  const version = normalizeVersion(v);
  if (!specVersions(specRoot).includes(version))
    throw new Error(`${path}: serves ${version}, but there is no spec/${versionFolder(version)}/`);
  return version;
}
