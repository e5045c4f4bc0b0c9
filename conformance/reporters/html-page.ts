// What the HTML report and the HTML matrix share: escaping, one self-contained page (inline CSS and
// script, no network, no fonts) and a Content-Security-Policy that lets only that one script run, so
// text from a server that escaped our escaping still could not execute.
import { createHash } from 'node:crypto';
import type { Verdict } from '../lib/types';

/** Text content: everything a server sends goes through here (or attr). Quotes stay: JSON frames are full of them. */
export function esc(value: unknown): string {
  return (
    String(value)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      // C0 controls but tab and newline show as their code (the page is not the place for them).
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  );
}

/** Attribute values (always written in double quotes). */
export function attr(value: unknown): string {
  return esc(value).replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** href values: only our own relative or file links; anything else (javascript:, data:) is dropped. */
export function safeHref(href: string): string {
  return /^(?:[a-z][a-z0-9+.-]*:)/i.test(href) && !/^file:/i.test(href) ? '#' : attr(href);
}

export const VERDICT_LABEL: Record<Verdict, string> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warn',
  error: 'error',
  skip: 'skip',
  unimplemented: 'unimplemented',
};
export const VERDICT_ICON: Record<Verdict, string> = {
  pass: '✓',
  fail: '✗',
  warn: '!',
  error: '‼',
  skip: '–',
  unimplemented: '○',
};

/** A verdict badge: icon and word (never colour alone). */
export function badge(v: Verdict, expected = false): string {
  return `<span class="v v-${v}">${VERDICT_ICON[v]} ${VERDICT_LABEL[v]}${expected ? ' (expected)' : ''}</span>`;
}

const CSS = `
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--muted:#57606a;--line:#d0d7de;--soft:#f6f8fa;--focus:#0969da;
--pass:#1a7f37;--fail:#cf222e;--warn:#9a6700;--error:#8250df;--skip:#57606a;--unimplemented:#0550ae}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#9198a1;--line:#30363d;--soft:#161b22;--focus:#4493f8;
--pass:#3fb950;--fail:#f85149;--warn:#d29922;--error:#a371f7;--skip:#9198a1;--unimplemented:#58a6ff}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:78rem;padding:1rem;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:1.4rem;margin:.2rem 0 .4rem}h2{font-size:1.1rem;margin:1.4rem 0 .4rem}
a{color:var(--focus)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.muted{color:var(--muted)}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{border:1px solid var(--line);padding:.2rem .5rem;text-align:left;vertical-align:top}
th{background:var(--soft)}td.n{text-align:right}
.v{font-weight:600;white-space:nowrap}
.v-pass{color:var(--pass)}.v-fail{color:var(--fail)}.v-warn{color:var(--warn)}.v-error{color:var(--error)}.v-skip{color:var(--skip)}.v-unimplemented{color:var(--unimplemented)}
.ok{color:var(--pass)}.bad{color:var(--fail)}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end;position:sticky;top:0;z-index:1;background:var(--bg);padding:.5rem 0;border-bottom:1px solid var(--line)}
fieldset{border:1px solid var(--line);margin:0;padding:.2rem .5rem;display:flex;flex-wrap:wrap;gap:.1rem .7rem}
legend{font-size:.85rem;color:var(--muted)}
label{white-space:nowrap}
select,input[type=search],button{font:inherit;padding:.15rem .3rem}
details.case{border:1px solid var(--line);border-radius:6px;margin:.35rem 0;padding:0 .6rem}
details.case>summary{cursor:pointer;padding:.35rem 0;overflow-wrap:anywhere}
details.case[open]>summary{border-bottom:1px solid var(--line)}
code,pre{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--soft);padding:.4rem .5rem;margin:.2rem 0;border-radius:4px}
pre ins{color:var(--pass);text-decoration:none}pre del{color:var(--fail);text-decoration:none}
ol.transcript{list-style:none;padding:0;margin:.2rem 0}
ul.plain{list-style:none;padding:0;margin:0}
ol.transcript li{display:grid;grid-template-columns:5.5rem 1fr;gap:.4rem}
ol.transcript li pre{margin:.1rem 0}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;margin:.4rem 0}
dl.meta dt{color:var(--muted)}dl.meta dd{margin:0;overflow-wrap:anywhere}
table.matrix th code{white-space:nowrap}
[hidden]{display:none!important}
@media (max-width:40rem){body{padding:.5rem}ol.transcript li{grid-template-columns:1fr}form.filters{position:static}}
`;

/** The page: escaped title, body given as HTML built with esc(), and one inline script allowed by its hash. */
export function page(title: string, body: string, script: string): string {
  const hash = createHash('sha256').update(script).digest('base64');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${hash}'; img-src data:; base-uri 'none'; form-action 'none'">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
${body}
<script>${script}</script>
</body>
</html>
`;
}
