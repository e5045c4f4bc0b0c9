// Which JSON Schema formats allow every string another allows (draft 2020-12 format vocabulary).
// Any other pair of different formats is unproven either way.

/** format → formats that allow every string it allows (and more). */
const WIDER: Record<string, readonly string[]> = {
  uri: ['uri-reference', 'iri', 'iri-reference'],
  'uri-reference': ['iri-reference'],
  iri: ['iri-reference'],
  email: ['idn-email'],
  hostname: ['idn-hostname'],
};

/** 'widened' when `to` allows every string `from` does, 'narrowed' for the reverse, else 'unrelated':
 *  which strings one allows and the other refuses is not known here (ipv4 addresses are hostnames,
 *  a date is no email, a format a validator does not know allows everything). */
export function formatChange(from: string, to: string): 'widened' | 'narrowed' | 'unrelated' {
  if (WIDER[from]?.includes(to)) return 'widened';
  if (WIDER[to]?.includes(from)) return 'narrowed';
  return 'unrelated';
}
