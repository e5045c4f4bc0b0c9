// types.ts body: json-schema-to-typescript over the bundled root. Prettier is skipped (it cost most
// of the generation time); a small brace-depth indenter lays the output out instead.

import type { RefResolver } from '@idea-kit/spec-lib/refs';
import { compile } from 'json-schema-to-typescript';
import { bundleForTypes } from './bundle';
import type { FieldHistory } from './field-history';

const ROOT = 'IdeaSchemaBundle';

/** Re-indents json-schema-to-typescript's unformatted output and separates top-level declarations. */
export function layout(ts: string): string {
  const out: string[] = [];
  let depth = 0;
  let prev = '';
  for (const raw of ts.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const isComment = line.startsWith('/*') || line.startsWith('*');
    const code = isComment ? '' : line.replace(/"(?:[^"\\]|\\.)*"/g, '""');
    const leadingClose = /^[}\])]/.test(code) ? 1 : 0;
    depth = Math.max(0, depth - leadingClose);
    if (depth === 0 && (line.startsWith('/**') || (line.startsWith('export ') && prev !== '*/')) && out.length > 0)
      out.push('');
    out.push('  '.repeat(depth) + (line.startsWith('*') ? ` ${line}` : line));
    const opens = (code.match(/[{[(]/g) ?? []).length;
    const closes = (code.match(/[}\])]/g) ?? []).length;
    depth = Math.max(0, depth + opens - closes + leadingClose);
    prev = line;
  }
  return out.join('\n');
}

export async function generateTypeDeclarations(refs: RefResolver, history: FieldHistory): Promise<string> {
  const bundle = bundleForTypes(refs, history, ROOT);
  const ts = await compile(bundle as never, ROOT, {
    bannerComment: '',
    additionalProperties: false,
    unreachableDefinitions: true,
    declareExternallyReferenced: true,
    strictIndexSignatures: true,
    ignoreMinAndMaxItems: true,
    format: false,
  });
  // The root only holds the definitions, and the "referenced by the root" notes name a type nobody
  // sees: drop both.
  const cleaned = ts
    .replace(new RegExp(`export interface ${ROOT} \\{\\s*\\}\\n`), '')
    .replace(
      new RegExp(
        ` \\* ?\\n \\* This interface was referenced by \`${ROOT}\`'s JSON-Schema\\n \\* via the \`definition\` "\\w+"\\.\\n`,
        'g',
      ),
      '',
    )
    .replace(
      new RegExp(
        ` \\* This interface was referenced by \`${ROOT}\`'s JSON-Schema\\n \\* via the \`definition\` "\\w+"\\.\\n`,
        'g',
      ),
      '',
    )
    .replace(/\/\*\*\n \*\/\n/g, '');
  if (cleaned.includes(ROOT)) throw new Error(`types: could not drop the ${ROOT} bundle root`);
  return `${layout(cleaned)}\n`;
}
