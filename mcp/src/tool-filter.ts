// Which tools an agent is handed: all the server advertises, or fewer. Agent authors decide first what
// an agent may do; `--read-only` keeps only tools whose annotations say they change nothing, and
// `--enable-tools` / `--disable-tools` (or IDEA_MCP_READ_ONLY, IDEA_MCP_ENABLE_TOOLS,
// IDEA_MCP_DISABLE_TOOLS) name them. A hidden tool is neither listed nor callable: tools/call refuses it
// as an unknown tool would be. Names are checked at start-up against the generated tool table, so a
// typo is an error listing the valid names, never a tool silently left enabled.
import type { McpToolDefinition } from '../../generated/current';

export interface ToolFilterOptions {
  readOnly?: boolean;
  /** Only these tools (after readOnly). */
  enable?: readonly string[];
  /** Never these tools. */
  disable?: readonly string[];
}

export interface ToolFilter {
  allows(tool: Pick<McpToolDefinition, 'name' | 'annotations'>): boolean;
  /** Why a tool is hidden, for the error of a call to it. */
  why(name: string): string;
  /** For the start-up log; undefined when every tool is allowed. */
  summary?: string;
}

export const ALL_TOOLS: ToolFilter = { allows: () => true, why: () => '' };

export class ToolFilterError extends Error {
  override readonly name = 'ToolFilterError';
}

/** A comma- or space-separated list of names ("edit_find, nav_hover"); empty entries dropped. */
export function toolList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The filter of the options, checked against `known` (every tool of the version idea-mcp serves). */
export function toolFilter(o: ToolFilterOptions, known: readonly McpToolDefinition[]): ToolFilter {
  const names = new Set(known.map((t) => t.name));
  const valid = () => [...names].sort().join(', ');
  for (const [flag, list] of [
    ['--enable-tools', o.enable],
    ['--disable-tools', o.disable],
  ] as const) {
    const unknown = (list ?? []).filter((n) => !names.has(n));
    if (unknown.length > 0)
      throw new ToolFilterError(`${flag}: unknown tool ${unknown.join(', ')} (the tools are: ${valid()})`);
  }
  const enable = o.enable && o.enable.length > 0 ? new Set(o.enable) : undefined;
  const disable = new Set(o.disable ?? []);
  if (o.readOnly && enable) {
    const writes = known.filter((t) => enable.has(t.name) && !t.annotations.readOnlyHint).map((t) => t.name);
    if (writes.length > 0)
      throw new ToolFilterError(`--enable-tools names tools that write, which --read-only hides: ${writes.join(', ')}`);
  }
  if (!o.readOnly && !enable && disable.size === 0) return ALL_TOOLS;
  const allows = (t: Pick<McpToolDefinition, 'name' | 'annotations'>) =>
    (!o.readOnly || t.annotations.readOnlyHint) && (!enable || enable.has(t.name)) && !disable.has(t.name);
  const shown = known.filter(allows).map((t) => t.name);
  return {
    allows,
    why: (name) => {
      if (disable.has(name)) return `${name} is disabled (--disable-tools)`;
      if (enable && !enable.has(name)) return `${name} is not among --enable-tools`;
      return `${name} writes, and idea-mcp runs --read-only`;
    },
    summary: `tools: ${shown.length} of ${known.length} (${[o.readOnly ? 'read-only' : '', enable ? 'enable-tools' : '', disable.size ? 'disable-tools' : ''].filter(Boolean).join(', ')}): ${shown.join(', ')}`,
  };
}

/** Options from the environment (flags given on the command line take their place). */
export function toolFilterEnv(env: NodeJS.ProcessEnv): ToolFilterOptions {
  const flag = env.IDEA_MCP_READ_ONLY?.trim().toLowerCase();
  return {
    ...(flag !== undefined && flag !== '' ? { readOnly: !['0', 'false', 'no', 'off'].includes(flag) } : {}),
    ...(env.IDEA_MCP_ENABLE_TOOLS ? { enable: toolList(env.IDEA_MCP_ENABLE_TOOLS) } : {}),
    ...(env.IDEA_MCP_DISABLE_TOOLS ? { disable: toolList(env.IDEA_MCP_DISABLE_TOOLS) } : {}),
  };
}
