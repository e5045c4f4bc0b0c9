// A change inside the target of a `$ref` (a `$def`, or another schema file) reaches every place the
// target is used; it is reported once, under the target's name, with those places listed as its uses.
// The group's level is its most severe use: the same edit can break clients where the target is a
// param and be harmless where it is a result.
import type { SchemaChange } from './schema-diff';
import { type Change, levelRank, type Use } from './types';

export function groupByDef(changes: readonly SchemaChange[]): Change[] {
  const out: (Change | Group)[] = [];
  const groups = new Map<string, Group>();
  for (const c of changes) {
    const { def, ...change } = c;
    if (!def) {
      out.push(change);
      continue;
    }
    const key = JSON.stringify([def.name, def.path, def.detail]);
    let g = groups.get(key);
    if (!g) {
      g = { name: def.name, path: def.path, detail: def.detail, uses: [] };
      groups.set(key, g);
      out.push(g);
    }
    if (!g.uses.some((u) => u.location === c.location && u.path === c.path && u.kind === c.kind)) {
      g.uses.push({ level: c.level, kind: c.kind, location: c.location, path: c.path, message: c.message });
    }
  }
  return out.map((x) => ('uses' in x && 'detail' in x ? groupChange(x) : (x as Change)));
}

interface Group {
  name: string;
  path: string;
  detail: string;
  uses: Use[];
}

function groupChange(g: Group): Change {
  const uses = [...g.uses].sort(
    (a, b) =>
      levelRank(b.level) - levelRank(a.level) || a.location.localeCompare(b.location) || a.path.localeCompare(b.path),
  );
  const top = uses[0]!;
  // Each use's message is "<detail>: <consequence>"; the group says the detail once, with the
  // consequence of its most severe use, and how many uses have each level when they differ.
  const consequence = top.message.startsWith(`${g.detail}: `) ? top.message.slice(g.detail.length + 2) : '';
  const levels = (['ERR', 'WARN', 'INFO'] as const)
    .map((l) => [l, uses.filter((u) => u.level === l).length] as const)
    .filter(([, n]) => n > 0);
  const count = `${uses.length} use${uses.length === 1 ? '' : 's'}${levels.length > 1 ? `: ${levels.map(([l, n]) => `${n} ${l}`).join(', ')}` : ''}`;
  const message = `${g.detail}${consequence ? `: ${consequence}` : ''} (${count})`;
  return { level: top.level, kind: top.kind, location: g.name, path: g.path, message, uses };
}
