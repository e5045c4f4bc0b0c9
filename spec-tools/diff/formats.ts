// Which JSON Schema formats allow every string another allows (draft 2020-12 format vocabulary).
// Any other pair of different formats is treated as a replacement.

/** format → formats that allow every string it allows (and more). */
const WIDER: Record<string, readonly string[]> = {
  uri: ['uri-reference', 'iri', 'iri-reference'],
  'uri-reference': ['iri-reference'],
  iri: ['iri-reference'],
  email: ['idn-email'],
  hostname: ['idn-hostname'],
};

/** 'widened' when `to` allows every string `from` does, 'narrowed' for the reverse, else 'changed'. */
export function formatChange(from: string, to: string): 'widened' | 'narrowed' | 'changed' {
  if (WIDER[from]?.includes(to)) return 'widened';
  if (WIDER[to]?.includes(from)) return 'narrowed';
  return 'changed';
}
