// Child process for the crash tests: applies one planned all-or-nothing write and is SIGKILLed by the
// parent at a random moment, or kills itself at a given point of the write. argv: <stateDir>
// <plan.json> [crashAt]; plan = [{path, target, beforeFile, afterFile, mode?}] (files), or
// {writes: [...], folders: [{path, target, change, mode?}]} where beforeFile / afterFile may be null (a
// file created / deleted); crashAt: "prepared" (every temp file written and fsynced, nothing replaced
// yet), "renamed:<k>" (right after the k-th file was replaced or deleted) or "folder:<k>" (right after
// the k-th folder step: the folders created come first, then those removed).
import { readFileSync } from 'node:fs';
import { applyAllOrNothing, type PlannedFolder, type PlannedWrite } from '../../../server-core/write/transaction';

interface FilePlan {
  path: string;
  target: string;
  beforeFile: string | null;
  afterFile: string | null;
  mode?: number;
}
const [stateDir, planFile, crashAt] = process.argv.slice(2);
const raw = JSON.parse(readFileSync(planFile!, 'utf8')) as
  | FilePlan[]
  | { writes: FilePlan[]; folders: PlannedFolder[] };
const plan = Array.isArray(raw) ? { writes: raw, folders: [] } : raw;
const writes: PlannedWrite[] = plan.writes.map((p) => ({
  path: p.path,
  target: p.target,
  before: p.beforeFile === null ? null : readFileSync(p.beforeFile),
  after: p.afterFile === null ? null : readFileSync(p.afterFile),
  ...(p.mode !== undefined && { mode: p.mode }),
}));
const crash = (): void => void process.kill(process.pid, 'SIGKILL');
const at = (prefix: string) => (crashAt?.startsWith(prefix) ? Number(crashAt.slice(prefix.length)) : null);
const renamedK = at('renamed:');
const folderK = at('folder:');
process.stdout.write('start\n');
await applyAllOrNothing(writes, {
  stateDir: stateDir!,
  what: 'crash test',
  folders: plan.folders,
  afterPrepared: crashAt === 'prepared' ? crash : undefined,
  afterEach:
    renamedK === null
      ? undefined
      : (_w, i) => {
          if (i === renamedK - 1) crash();
        },
  afterFolder:
    folderK === null
      ? undefined
      : (_f, i) => {
          if (i === folderK - 1) crash();
        },
});
process.stdout.write('committed\n');
