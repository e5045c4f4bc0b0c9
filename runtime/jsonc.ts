// Lenient reader for VS Code settings files (JSON with comments and trailing commas).

/** Removes // and /* *\/ comments and trailing commas outside strings, then JSON.parse. Throws on bad JSON. */
export function parseJsonc(text: string): unknown {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '"') {
      // Copy a whole string literal, honouring escapes, so "http://x" or "/*" inside strings survive.
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === ',') {
      // Drop a comma whose next significant character closes an object or array.
      let j = i + 1;
      for (;;) {
        while (j < n && /\s/.test(text[j]!)) j++;
        if (text[j] === '/' && text[j + 1] === '/') {
          while (j < n && text[j] !== '\n') j++;
          continue;
        }
        if (text[j] === '/' && text[j + 1] === '*') {
          const e = text.indexOf('*/', j + 2);
          j = e < 0 ? n : e + 2;
          continue;
        }
        break;
      }
      if (text[j] !== '}' && text[j] !== ']') out += c;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out.charCodeAt(0) === 0xfeff ? out.slice(1) : out);
}
