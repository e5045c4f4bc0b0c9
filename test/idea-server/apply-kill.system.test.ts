// clause H21 (and T57) against the built idea-server: SIGKILL in the middle of an edit/apply that edits
// 60 files, deletes a folder and creates a file in a new folder, at moments spread over the write (aimed
// from the disk, kill-aim.ts), then a restart. Before the restart every file holds its old or new bytes;
// after it (the journal replayed) the whole tree is as before or as after, never between, and a write
// that was answered stays. Last, the answered transaction is undone through a restarted server: the
// undo log outlives the process, and the tree is back byte for byte.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect } from '../../generated/current';
import { exited } from '../support/processes';
import { type Aim, aimKill } from './kill-aim';
import { IDEA_SERVER_BIN, type Started, startServer } from './start-bin';

const FILES = 60;
const RUNS = 8;
/** Runs that must have been killed with some files new and some old, or recovery was not shown to run. */
const MIN_MID_TRANSACTION = 2;

describe('idea-server killed (SIGKILL) in the middle of an edit/apply', () => {
  it(`leaves every path as before or as after once restarted (${RUNS} kills), and the answered one undoes`, async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'idea-server-apply-kill-'));
    try {
      const home = join(tmp, 'home');
      mkdirSync(home);
      const registry = join(tmp, 'registry');
      const env = { PATH: process.env.PATH, HOME: home, IDEA_REGISTRY_DIR: registry };
      const ws = join(tmp, 'ws');
      mkdirSync(ws);
      const files = Array.from({ length: FILES }, (_, i) => {
        const name = `f${String(i).padStart(3, '0')}.txt`;
        const old = `old line ${i} of ${name}\n`.repeat(50);
        return { name, path: join(ws, name), old, new: old.replaceAll('old', 'NEW') };
      });
      const names = new Set(files.map((f) => f.name));
      const gone = ['a.txt', 'b.txt', 'c.txt'];
      const reset = () => {
        for (const f of files) writeFileSync(f.path, f.old);
        mkdirSync(join(ws, 'gone'), { recursive: true });
        for (const g of gone) writeFileSync(join(ws, 'gone', g), `${g}\n`);
        rmSync(join(ws, 'made'), { recursive: true, force: true });
      };
      const changes = [
        ...files.map((f) => ({
          kind: 'edit',
          filePath: f.name,
          edits: [{ line: 0, character: 0, endLine: 50, endCharacter: 0, newText: f.new }],
        })),
        { kind: 'delete', filePath: 'gone', recursive: true },
        { kind: 'create', filePath: 'made/x.txt', content: 'made\n' },
      ];
      /** How many files hold the new bytes (each must hold the old or the new), and the folders' state. */
      const seen = (run: string) => {
        let n = 0;
        for (const f of files) {
          const now = readFileSync(f.path, 'utf8');
          expect(now === f.old || now === f.new, `${run}: ${f.name} is neither old nor new`).toBe(true);
          if (now === f.new) n++;
        }
        const goneLeft = existsSync(join(ws, 'gone')) ? readdirSync(join(ws, 'gone')).sort() : null;
        const made = existsSync(join(ws, 'made')) ? readdirSync(join(ws, 'made')) : null;
        return { n, goneLeft, made };
      };
      const before = { n: 0, goneLeft: gone, made: null };
      const after = { n: FILES, goneLeft: null, made: ['x.txt'] };
      const start = () => startServer(IDEA_SERVER_BIN, ['--workspace', ws, '--port', '0'], env, registry);
      const stop = async (s: Started) => {
        s.child.kill('SIGTERM');
        await exited(s.child, 'idea-server after SIGTERM');
      };

      // A whole write, not killed: its duration, and the journal folder the first kill watches.
      reset();
      let server = await start();
      let client = await connect({ url: server.entry.url, token: server.entry.token! });
      let t0 = performance.now();
      const whole = await client.editApply({ changes } as never);
      const span = performance.now() - t0;
      expect(whole.transactionId).toBeDefined();
      client.close();
      await stop(server);
      expect(seen('unkilled apply')).toEqual(after);
      const stateRoot = join(home, '.idea-protocol', 'idea-server');
      const journalDir = join(stateRoot, readdirSync(stateRoot)[0]!, 'journal');
      expect(readdirSync(journalDir)).toEqual([]);

      const aims: (Aim | 'answered')[] = [
        { kind: 'journal' },
        ...Array.from({ length: RUNS - 2 }, (_, j) => ({
          kind: 'renamed' as const,
          count: Math.max(1, Math.round(((j + 1) / (RUNS - 1)) * FILES)),
        })),
        'answered',
      ];
      const runs: { aim: string; killedAtMs: number; newBefore: number; after: 'before' | 'after' }[] = [];
      let answeredId: string | undefined;
      for (const [i, aim] of aims.entries()) {
        const run = `run ${i} (${aim === 'answered' ? aim : aim.kind === 'journal' ? 'journal' : `${aim.count} renamed`})`;
        reset();
        server = await start();
        client = await connect({ url: server.entry.url, token: server.entry.token! });
        const victim: ChildProcess = server.child;
        let killedAt = Number.NaN;
        const kill = () => {
          killedAt = performance.now() - t0;
          victim.kill('SIGKILL');
        };
        const watcher = aim === 'answered' ? undefined : aimKill(aim, ws, journalDir, names, kill);
        t0 = performance.now();
        // A kill that never fires (the write finished first) must not hang the run: the answer ends it.
        const answer = await client.editApply({ changes } as never).then(
          (r) => r,
          () => undefined, // the connection died with the server
        );
        watcher?.close();
        if (aim === 'answered') {
          expect(answer, `${run}: no answer`).toBeDefined();
          answeredId = answer!.transactionId;
        }
        if (victim.exitCode === null && victim.signalCode === null) kill();
        await exited(victim, `${run}: the killed idea-server`);
        client.close();
        const newBefore = seen(run).n;
        // The restart replays the journal before it serves (its registry entry means: recovered).
        await stop(await start());
        const state = seen(`${run}, after recovery`);
        expect([before, after], `${run}: ${JSON.stringify(state)} after recovery`).toContainEqual(state);
        const outcome = state.n === FILES ? 'after' : 'before';
        if (newBefore > 0 && newBefore < FILES) expect(outcome, `${run}: mixed, then not undone`).toBe('before');
        if (answer) expect(outcome, `${run}: answered, then undone`).toBe('after');
        expect(
          readdirSync(ws).filter((n) => n.includes('.idea-tmp-')),
          `${run}: temporary files left`,
        ).toEqual([]);
        runs.push({ aim: run, killedAtMs: Math.round(killedAt), newBefore, after: outcome });
      }
      const mid = runs.filter((r) => r.newBefore > 0 && r.newBefore < FILES).length;
      const summary = `whole apply of ${FILES} files ${Math.round(span)} ms; ${mid} of ${RUNS} kills mid-transaction; ${runs
        .map((r) => `${r.aim}: killed at ${r.killedAtMs} ms, ${r.newBefore} new → ${r.after}`)
        .join('; ')}`;
      console.log(`idea-server edit/apply SIGKILL: ${summary}`);
      expect(mid, summary).toBeGreaterThanOrEqual(MIN_MID_TRANSACTION);
      expect(runs.filter((r) => r.after === 'before').length, summary).toBeGreaterThan(0);
      expect(runs.filter((r) => r.after === 'after').length, summary).toBeGreaterThan(0);

      // The answered write, undone through a server started afresh: the tree is as before, byte for byte.
      server = await start();
      client = await connect({ url: server.entry.url, token: server.entry.token! });
      const listed = await client.editTransactions({});
      expect(listed.transactions[0]?.transactionId).toBe(answeredId);
      const undone = await client.editUndo({ transactionId: answeredId! });
      expect(undone.transactionId).toBeDefined();
      expect(seen('undone')).toEqual(before);
      for (const f of files) expect(readFileSync(f.path, 'utf8')).toBe(f.old);
      client.close();
      await stop(server);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 420_000);
});
