// Bundles the MCP server into one ESM file with its dependencies (the MCP SDK, ws, the generated
// client and tool tables), so `idea-mcp` runs without this repository's node_modules.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleBin } from '../scripts/bundle-bin.mjs';

const here = dirname(fileURLToPath(import.meta.url));
rmSync(join(here, 'dist'), { recursive: true, force: true });
await bundleBin({ entry: join(here, 'src/cli.ts'), outfile: join(here, 'dist/idea-mcp.mjs') });
