// Aims a kill at a moment of a multi-file write by watching the disk (inotify through fs.watch) rather
// than by a fixed delay, which on a busy machine lands before or after the short window that matters.
// The callback runs synchronously inside the watch event, so the kill follows the seen rename within
// the test process's event-loop latency (the writer fsyncs every file and its folder: milliseconds).
import { type FSWatcher, watch } from 'node:fs';

/** Where to kill: when a journal folder appears, or once `count` target files have been renamed over. */
export type Aim = { kind: 'journal' } | { kind: 'renamed'; count: number };

export interface AimedKill {
  /** True once the callback has run. */
  readonly fired: () => boolean;
  close(): void;
}

/**
 * Calls `fire` once, at the aim: `journalDir` gets a new entry (WriteJournal.begin's folder, made before
 * the originals are copied), or `count` distinct names of `targets` in `dir` have been renamed over
 * (atomic-file.ts renames its temporary file onto the target: an IN_MOVED_TO event for the target name).
 */
export function aimKill(aim: Aim, dir: string, journalDir: string, targets: ReadonlySet<string>, fire: () => void) {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    fire();
  };
  let watcher: FSWatcher;
  if (aim.kind === 'journal') {
    watcher = watch(journalDir, (event) => {
      if (event === 'rename') once();
    });
  } else {
    const renamed = new Set<string>();
    watcher = watch(dir, (event, name) => {
      if (event !== 'rename' || name === null || !targets.has(name)) return;
      renamed.add(name);
      if (renamed.size >= aim.count) once();
    });
  }
  return { fired: () => done, close: () => watcher.close() } satisfies AimedKill;
}
