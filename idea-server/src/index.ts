// @idea-kit/server as a library: serve a workspace in-process (what `idea --headless` and
// `idea-mcp --headless` do), and the pieces a caller may want to show or check.
export { parseServerArgs, type ServerArgs, USAGE, UsageError } from './args';
export { type Headless, type HeadlessOptions, serveIfNone } from './headless';
export type { ServerCommand } from './lsp/config';
export { parseServerSpec } from './lsp/config';
export { type ServedWorkspace, type ServeOptions, serveWorkspace, WorkspaceError } from './serve';
