// One line describing where and when the figures were measured (the README table needs it).
import { cpus, release, totalmem } from 'node:os';

export function machineLine(at = new Date()): string {
  const c = cpus();
  return (
    `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC · ${c.length}× ${c[0]?.model.trim() ?? 'cpu'} · ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB · Linux ${release()} · Node ${process.version}`
  );
}
