// Protocol versions are plain "major.minor.patch" strings; spec folders are named "v<version>".
export type Version = string;

const VERSION_RE = /^(\d+)\.(\d+)\.(\d+)$/;

export function parseVersion(v: string): [number, number, number] {
  const m = VERSION_RE.exec(v.replace(/^v/, ''));
  if (!m) throw new Error(`not a protocol version: ${JSON.stringify(v)} (expected e.g. 0.1.6)`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

export function normalizeVersion(v: string): Version {
  return parseVersion(v).join('.');
}

export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

export function isVersion(v: string): boolean {
  return VERSION_RE.test(v.replace(/^v/, ''));
}

export function nextPatch(v: string): Version {
  const [a, b, c] = parseVersion(v);
  return `${a}.${b}.${c + 1}`;
}
