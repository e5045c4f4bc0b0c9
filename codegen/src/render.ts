// Handlebars setup: templates live in codegen/templates/ (`<output file>.hbs`, partials `<name>.partial.hbs`).

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';

const TEMPLATE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'templates');

const hb = Handlebars.create();
hb.registerHelper('json', (v: unknown) => JSON.stringify(v));
hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
// Markdown table cell: no raw pipes or newlines.
hb.registerHelper('cell', (v: unknown) =>
  String(v ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, ' '),
);
// GitHub heading anchor of a topic heading.
hb.registerHelper('anchor', (v: unknown) =>
  String(v)
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-'),
);

const compiled = new Map<string, Handlebars.TemplateDelegate>();
let partialsLoaded = false;

function loadPartials(): void {
  if (partialsLoaded) return;
  for (const f of readdirSync(TEMPLATE_DIR).sort()) {
    const m = /^(.+)\.partial\.hbs$/.exec(f);
    if (m) hb.registerPartial(m[1]!, readFileSync(join(TEMPLATE_DIR, f), 'utf8'));
  }
  partialsLoaded = true;
}

/** Renders codegen/templates/<file>.hbs. Output is code, so nothing is HTML-escaped. */
export function render(file: string, context: object): string {
  loadPartials();
  let t = compiled.get(file);
  if (!t) {
    t = hb.compile(readFileSync(join(TEMPLATE_DIR, `${file}.hbs`), 'utf8'), { noEscape: true, strict: true });
    compiled.set(file, t);
  }
  return `${t(context)
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
