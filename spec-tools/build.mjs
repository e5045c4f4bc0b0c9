// Builds @idea-kit/spec-tools: the idea-spec bin as one ESM file (dist/idea-spec.mjs) and a copy of the
// published spec beside it (dist/spec/), which it works on when the working directory is not a spec
// repository of its own (so `npx idea-spec diff 0.1.5 0.1.6` answers anywhere).
import { cpSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleBin } from '../scripts/bundle-bin.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

rmSync(join(here, 'dist'), { recursive: true, force: true });
await bundleBin({ entry: join(here, 'cli.ts'), outfile: join(here, 'dist', 'idea-spec.mjs') });
cpSync(join(root, 'spec'), join(here, 'dist', 'spec'), { recursive: true });
console.log('@idea-kit/spec-tools → dist/idea-spec.mjs, dist/spec/');
