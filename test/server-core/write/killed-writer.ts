// Child process for the crash tests: applies one planned all-or-nothing write and is SIGKILLed by the
// parent at a random moment. argv: <stateDir> <plan.json>; plan = [{path, target, beforeFile, afterFile}].
import { readFileSync } from 'node:fs';
import { applyAllOrNothing, type PlannedWrite } from '../../../server-core/write/transaction';

const [stateDir, planFile] = process.argv.slice(2);
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
process.stdout.write('start\n');
await applyAllOrNothing(writes, { stateDir: stateDir!, what: 'crash test' });
process.stdout.write('committed\n');
