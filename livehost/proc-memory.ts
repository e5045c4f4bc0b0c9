// Process-tree inspection from /proc (Linux): who descends from whom, who is in a process group, and how
// much memory a tree uses. RSS over-counts pages shared between processes; PSS divides them fairly.
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  state: string;
}

/** One snapshot of every process visible in /proc. */
export function processTable(): Map<number, ProcInfo> {
  const table = new Map<number, ProcInfo>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      // Fields after the command name, which sits in parentheses and may itself contain spaces or ')'.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(d), { pid: Number(d), state: f[0]!, ppid: Number(f[1]), pgrp: Number(f[2]) });
    } catch {
      /* the process exited while we looked */
    }
  }
  return table;
}

/** rootPid and all its living descendants. */
export function treePids(rootPid: number, table = processTable()): number[] {
  if (!table.has(rootPid)) return [];
  const children = new Map<number, number[]>();
  for (const p of table.values()) {
    const list = children.get(p.ppid) ?? [];
    list.push(p.pid);
    children.set(p.ppid, list);
  }
  const out: number[] = [];
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** Living (non-zombie) members of a process group. */
export function groupPids(pgid: number, table = processTable()): number[] {
  return [...table.values()].filter((p) => p.pgrp === pgid && p.state !== 'Z').map((p) => p.pid);
}

export interface TreeMemory {
  rssMB: number;
  pssMB: number;
  procs: number;
}

/** Sum of RSS and PSS (from /proc/<pid>/smaps_rollup) over the trees rooted at rootPids. */
export function sampleTreeMemory(rootPids: number | number[], table = processTable()): TreeMemory {
  const pids = new Set<number>();
  for (const root of Array.isArray(rootPids) ? rootPids : [rootPids])
    for (const p of treePids(root, table)) pids.add(p);
  let rssKB = 0;
  let pssKB = 0;
  for (const pid of pids) {
    try {
      const s = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      rssKB += Number(/^Rss:\s+(\d+)/m.exec(s)?.[1] ?? 0);
      pssKB += Number(/^Pss:\s+(\d+)/m.exec(s)?.[1] ?? 0);
    } catch {
      /* exited, or a kernel thread without smaps */
    }
  }
  return { rssMB: round1(rssKB / 1024), pssMB: round1(pssKB / 1024), procs: pids.size };
}

const round1 = (x: number) => Math.round(x * 10) / 10;

export type PeakMemory = Record<string, TreeMemory>;

/**
 * Samples named process trees every intervalMs and keeps, per name and for their `total`, the peak RSS,
 * the peak PSS and the largest process count (each peak taken independently).
 */
export class PeakSampler {
  private timer: NodeJS.Timeout | undefined;
  private readonly peaks: PeakMemory = {};

  constructor(
    private readonly roots: () => Record<string, number | undefined>,
    private readonly intervalMs = 250,
  ) {}

  start(): this {
    if (!this.timer) {
      this.sample();
      this.timer = setInterval(() => this.sample(), this.intervalMs);
      this.timer.unref();
    }
    return this;
  }

  sample(): void {
    const table = processTable();
    const total: TreeMemory = { rssMB: 0, pssMB: 0, procs: 0 };
    for (const [name, pid] of Object.entries(this.roots())) {
      if (pid === undefined) continue;
      const m = sampleTreeMemory(pid, table);
      this.bump(name, m);
      total.rssMB = round1(total.rssMB + m.rssMB);
      total.pssMB = round1(total.pssMB + m.pssMB);
      total.procs += m.procs;
    }
    this.bump('total', total);
  }

  /** Stops sampling (after one last sample) and returns the peaks. */
  stop(): PeakMemory {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.sample();
    }
    return this.peak();
  }

  peak(): PeakMemory {
    return structuredClone(this.peaks);
  }

  private bump(name: string, m: TreeMemory): void {
    const p = (this.peaks[name] ??= { rssMB: 0, pssMB: 0, procs: 0 });
    p.rssMB = Math.max(p.rssMB, m.rssMB);
    p.pssMB = Math.max(p.pssMB, m.pssMB);
    p.procs = Math.max(p.procs, m.procs);
  }
}
