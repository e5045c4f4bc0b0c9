// The files of generated/<v>/ (kept apart so the fast --check path loads no generator code).
export const GENERATED_FILES = [
  'client.ts',
  'frames.ts',
  'index.ts',
  'mcp-tools.ts',
  'protocol.md',
  'server.ts',
  'topics.ts',
  'types.ts',
  'validators.d.ts',
  'validators.js',
  'manifest.json',
] as const;
