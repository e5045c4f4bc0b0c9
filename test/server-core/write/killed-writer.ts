// Child process for the crash tests: applies one planned all-or-nothing write and is SIGKILLed by the
// parent at a random moment, or kills itself at a given point of the write. argv: <stateDir>
// <plan.json> [crashAt]; plan = [{path, target, beforeFile, afterFile}]; crashAt: "prepared" (every
// temp file written and fsynced, nothing replaced yet) or "renamed:<k>" (right after the k-th file was
// replaced).
import { readFileSync } from 'node:fs';
import { applyAllOrNothing, type PlannedWrite } from '../../../server-core/write/transaction';

const [stateDir, planFile, crashAt] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planFile!, 'utf8')) as {
  path: string;
  target: string;
  beforeFile: string;
  afterFile: string;
}[];
const writes: PlannedWrite[] = plan.map((p) => ({
  path: p.path,
  target: p.target,
  before: readFileSync(p.beforeFile),
  after: readFileSync(p.afterFile),
}));
const crash = (): void => void process.kill(process.pid, 'SIGKILL');
const renamedK = crashAt?.startsWith('renamed:') ? Number(crashAt.slice('renamed:'.length)) : null;
process.stdout.write('start\n');
await applyAllOrNothing(writes, {
  stateDir: stateDir!,
  what: 'crash test',
  afterPrepared: crashAt === 'prepared' ? crash : undefined,
  afterEach:
    renamedK === null
      ? undefined
      : (_w, i) => {
          if (i === renamedK - 1) crash();
        },
});
process.stdout.write('committed\n');
