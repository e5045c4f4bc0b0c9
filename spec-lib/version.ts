// Protocol versions: plain "major.minor.patch" strings, spec folders named "v<version>". No imports on
// purpose: the conformance suite (to be packaged on its own) orders versions with this module alone.
export type Version = string;

const VERSION_RE = /^v?(\d+)\.(\d+)\.(\d+)$/;

/** True for "0.1.6" and the folder form "v0.1.6". */
export function isVersion(v: string): boolean {
  return VERSION_RE.test(v);
}

export function parseVersion(v: string): [number, number, number] {
  const m = VERSION_RE.exec(v);
  if (!m) throw new Error(`not a protocol version: ${JSON.stringify(v)} (expected e.g. 0.1.6)`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** "v0.1.6" or "0.1.6" → "0.1.6" (leading zeros dropped). */
export function normalizeVersion(v: string): Version {
  return parseVersion(v).join('.');
}

/** Numeric order (0.1.10 after 0.1.9, unlike a string sort); either form of each argument. */
export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/** The later of two versions (the first when they are equal). */
export function laterVersion(a: string, b: string): string {
  return compareVersions(a, b) >= 0 ? a : b;
}

export function nextPatch(v: string): Version {
  const [a, b, c] = parseVersion(v);
  return `${a}.${b}.${c + 1}`;
}

/** The spec folder name of a version: "0.1.6" → "v0.1.6". */
export function versionFolder(v: string): string {
  return `v${normalizeVersion(v)}`;
}
