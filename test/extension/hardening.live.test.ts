// Issue 9 against the live extension in a real VS Code: a token holder cannot turn edits into code
// execution (git disarmed, .git/.vscode never written), a write is all or nothing and keeps what it
// overwrites, silent-socket floods and token guessing are bounded, the token file is private, and
// integers git would misread are refused. One host for the file; VS Code's own git extension is off so
// that any program the planted configuration runs could only have been started by our extension.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { type Socket, connect as tcpConnect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connect, type IdeaClient } from '../../generated/v0.1.6/client';
import { groupPids, parseJsonc } from '../../livehost';
import { until } from '../support/wait';
import { errorCode, type LiveFixture, startLiveFixture } from './helpers';

let fx: LiveFixture;
let marker: string;
const MAX_CLIENTS = 12;
const GUESSES_PER_SECOND = 40;

beforeAll(async () => {
  fx = await startLiveFixture({
    userSettings: {
      'git.enabled': false,
      'idea.server.limits.maxClients': MAX_CLIENTS,
      'idea.server.limits.failedHandshakesPerSecond': GUESSES_PER_SECOND,
    },
    prepare: (dir) => {
      // A hostile repository: its config names a program for every hook git offers.
      marker = join(dir, '..', 'planted-program-ran.txt');
      const script = join(dir, '..', 'planted.sh');
      writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> '${marker}'\ncat\n`, { mode: 0o755 });
      for (const [k, v] of [
        ['core.fsmonitor', script],
        ['core.pager', script],
        ['diff.external', script],
        ['log.showSignature', 'true'],
        ['gpg.program', script],
        ['filter.evil.clean', `${script} clean`],
        ['diff.evil.textconv', script],
      ]) {
        execFileSync('git', ['-C', dir, 'config', k!, v!]);
      }
      mkdirSync(join(dir, '.git', 'hooks'), { recursive: true });
      writeFileSync(join(dir, '.git', 'hooks', 'post-checkout'), `#!/bin/sh\n${script} hook\n`, { mode: 0o755 });
      writeFileSync(join(dir, '.gitattributes'), '*.ts filter=evil diff=evil\n');
      // Many files for the all-or-nothing replace; one large untracked file for "originals are kept".
      mkdirSync(join(dir, 'bulk'));
      for (let i = 0; i < 60; i++)
        writeFileSync(join(dir, 'bulk', `f${String(i).padStart(4, '0')}.txt`), `bulk file ${i}\nmarker-alpha here\n`);
      writeFileSync(join(dir, 'big-untracked.log'), 'line with marker-omega\n'.repeat(40_000)); // ~900 KB, over local history's 256 KB
    },
  });
});
afterAll(async () => {
  await fx?.close();
});

const ran = () => (existsSync(marker) ? readFileSync(marker, 'utf8') : '');
const file = (rel: string) => readFileSync(join(fx.ws.dir, rel));

describe('no code execution through edits or history', () => {
  // clause H11: .vscode and .git are never written, whatever files.exclude says; rollbacks refuse them.
  it('the workspace settings and .git are never selected by edit/replace, even when un-excluded', async () => {
    const settingsBefore = file('.vscode/settings.json');
    const r = await fx.client.editReplace({ pattern: 'idea.server', replacement: 'pwned', include: '.vscode/**' });
    expect(r.replacedCount).toBe(0);
    expect(file('.vscode/settings.json').equals(settingsBefore)).toBe(true);
    // Un-exclude .git as an attacker with some other write access would, then try to plant a hook.
    const s = parseJsonc(settingsBefore.toString('utf8')) as Record<string, unknown>;
    writeFileSync(
      join(fx.ws.dir, '.vscode/settings.json'),
      JSON.stringify({ ...s, 'files.exclude': { '**/.git': false }, 'search.exclude': {} }, null, 2),
    );
    const configBefore = file('.git/config');
    // VS Code picks the settings change up asynchronously; reading is allowed, so find shows when.
    await until(
      'VS Code to apply the un-excluding settings',
      async () => (await fx.client.editFind({ pattern: 'fsmonitor', include: '.git/**' })).totalCount > 0,
      { timeoutMs: 20_000 },
    );
    const attempt = await fx.client.editReplace({
      pattern: 'fsmonitor = .*',
      replacement: 'fsmonitor = /bin/sh -c id',
      isRegex: true,
      include: '.git/**',
    });
    expect(attempt.replacedCount).toBe(0);
    expect(file('.git/config').equals(configBefore)).toBe(true);
  });
  it('rollbacks refuse protected targets', async () => {
    expect(await errorCode(fx.client.historyRollback({ filePath: '.git/config', toIndex: 1 }))).toBe('INVALID_REQUEST');
    expect(
      await errorCode(fx.client.localhistoryRollback({ filePath: '.vscode/settings.json', toId: 'AbCd.json' })),
    ).toBe('INVALID_REQUEST');
  });
  // clause H13: history topics over a repository whose config names programs: git runs none of them.
  it('history topics run none of the programs the repository configures', async () => {
    writeFileSync(join(fx.ws.dir, 'src/shapes.ts'), `${file('src/shapes.ts').toString('utf8')}\n// local change\n`);
    const list = await fx.client.historyList({ filePath: 'src/shapes.ts' });
    expect(list.totalCount).toBeGreaterThan(1);
    const wt = await fx.client.historyDiff({ filePath: 'src/shapes.ts', fromIndex: 0, toIndex: 1 });
    expect(wt.diff).toContain('+// local change');
    await fx.client.historyDiff({ filePath: 'src/shapes.ts', fromIndex: 1, toIndex: 2 });
    await fx.client.historyDiff({ filePath: 'src/shapes.ts', fromRef: 'HEAD~1' });
    await fx.client.historyRollback({ filePath: 'src/shapes.ts', toIndex: 1 });
    expect(ran()).toBe('');
    // The planted setup does run programs under plain git: the assertion above can fail.
    execFileSync('git', ['-C', fx.ws.dir, 'status', '--porcelain'], { stdio: 'pipe' });
    expect(ran()).not.toBe('');
  });
});

// clause H12: a failing replace leaves every file as it was; originals of any size kept.
describe('replace is a transaction', () => {
  it('a replace over 60 files that fails midway leaves every other file byte-identical and says so', async () => {
    const names = readdirSync(join(fx.ws.dir, 'bulk')).sort();
    const before = names.map((n) => file(`bulk/${n}`));
    // Someone else keeps rewriting the 31st file while the replace runs (it still matches), so the
    // replace finds it changed after it has written the first 30: it must put those back.
    const victim = join(fx.ws.dir, 'bulk', names[30]!);
    let n = 0;
    const staging = join(fx.ws.dir, '.victim-staging'); // outside bulk/, so never selected; renamed in whole
    const writer = setInterval(() => {
      writeFileSync(staging, `bulk file 30 rewritten ${n++}\nmarker-alpha here\n`);
      renameSync(staging, victim);
    }, 1);
    let answer: string;
    try {
      answer = await fx.client
        .editReplace({ pattern: 'marker-alpha', replacement: 'REPLACED', include: 'bulk/**' })
        .then(
          () => 'ok',
          (e: Error & { code?: string }) => `${e.code}: ${e.message}`,
        );
    } finally {
      clearInterval(writer);
    }
    expect(answer).toMatch(
      /^HANDLER_ERROR: .*f0030\.txt changed on disk.*nothing was changed \(30 file\(s\) already written were restored\)/,
    );
    names.forEach((name, i) => {
      if (i !== 30) expect(file(`bulk/${name}`).equals(before[i]!), name).toBe(true);
    });
    expect(file(`bulk/${names[30]}`).toString()).not.toContain('REPLACED');
    expect(readdirSync(join(fx.ws.dir, 'bulk')).filter((x) => x.includes('.idea-tmp-'))).toEqual([]);
  });
  it('keeps the original of a large untracked file in local history and can roll back to it', async () => {
    const original = file('big-untracked.log');
    const r = await fx.client.editReplace({
      pattern: 'marker-omega',
      replacement: 'changed',
      include: 'big-untracked.log',
    });
    expect(r).toEqual({
      replacedCount: 40_000,
      affectedFiles: [join(fx.ws.dir, 'big-untracked.log')],
      transactionId: expect.any(String),
    });
    const entries = (await fx.client.localhistoryList({ filePath: 'big-untracked.log' })).entries;
    const kept = entries.find((e) => e.source === 'IDEA: before edit/replace');
    expect(kept).toBeDefined();
    await fx.client.localhistoryRollback({ filePath: 'big-untracked.log', toId: kept!.id });
    expect(file('big-untracked.log').equals(original)).toBe(true);
  });
});

// clause H8: the admission limits in the real extension host, with its machine-scoped settings.
describe('limits', () => {
  function silentSocket(): Promise<Socket> {
    return new Promise((resolve) => {
      const s = tcpConnect(fx.host.port, '127.0.0.1', () => resolve(s));
      s.on('error', () => resolve(s));
    });
  }
  const extensionHostFds = () => {
    const pids = groupPids(fx.host.codeServerPid).filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('extensionHost');
      } catch {
        return false;
      }
    });
    return pids.reduce((n, p) => n + readdirSync(`/proc/${p}/fd`).length, 0);
  };

  it("a flood of 20,000 silent sockets leaves a real client served and the host's descriptors bounded", async () => {
    const fdsBefore = extensionHostFds();
    let peakFds = fdsBefore;
    const sockets: Socket[] = [];
    const watch = setInterval(() => {
      peakFds = Math.max(peakFds, extensionHostFds());
    }, 50);
    // The real client is another process, as it would be: it does not wait behind this one's flood.
    const real = new Promise<{ latencies: number[]; errors: string[] }>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          join(dirname(fileURLToPath(import.meta.url)), 'support/real-client.ts'),
          fx.host.url,
          fx.host.token,
          '5',
          '400',
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
      });
      child.on('close', () => {
        try {
          resolve(JSON.parse(out));
        } catch (e) {
          reject(e);
        }
      });
    });
    for (let wave = 0; wave < 20; wave++) {
      const batch = await Promise.all(Array.from({ length: 1000 }, silentSocket));
      sockets.push(...batch);
      for (const s of sockets.splice(0, sockets.length - 2000)) s.destroy(); // this process's own fd budget
    }
    const { latencies, errors } = await real;
    clearInterval(watch);
    for (const s of sockets) s.destroy();
    expect(errors).toEqual([]);
    expect(latencies).toHaveLength(5);
    // Pending sockets are capped at 128 (4× that for the instant between a burst and its trim): the
    // host never holds thousands of descriptors.
    expect(peakFds - fdsBefore).toBeLessThan(700);
    expect((await fx.client.fsFindFiles({ query: 'shapes' })).totalCount).toBe(1);
    console.log(
      `flood: real client connect+request ${latencies.join(', ')} ms; extension host fds ${fdsBefore} → peak ${peakFds}`,
    );
  });

  it('refuses connections beyond idea.server.limits.maxClients with HTTP 503', async () => {
    const clients: IdeaClient[] = [];
    try {
      while (clients.length < MAX_CLIENTS - 1) clients.push(await connect({ url: fx.host.url, token: fx.host.token }));
      const status = await new Promise<string>((resolve) => {
        const ws = new WebSocket(fx.host.url);
        ws.once('unexpected-response', (_q, res) => {
          resolve(String(res.statusCode));
          ws.terminate();
        });
        ws.once('open', () => {
          resolve('open');
          ws.terminate();
        });
        ws.once('error', (e) => resolve(e.message));
      });
      expect(status).toBe('503');
    } finally {
      for (const c of clients) c.close();
    }
    await new Promise((r) => setTimeout(r, 200));
    const again = await connect({ url: fx.host.url, token: fx.host.token });
    again.close();
  });

  it('holds token guessing to the configured rate and still admits the right token', async () => {
    // Batches below the pending-socket cap (64): beyond it the oldest waiting guesses would be dropped.
    const guesses = 200;
    const t0 = Date.now();
    const codes: string[] = [];
    for (let b = 0; b < guesses / 50; b++) {
      codes.push(
        ...(await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            errorCode(connect({ url: fx.host.url, token: `guess-${b}-${i}`, timeoutMs: 30_000 })),
          ),
        )),
      );
    }
    const elapsed = Date.now() - t0;
    expect(
      codes.every((c) => c === 'UNAUTHORIZED'),
      codes.find((c) => c !== 'UNAUTHORIZED'),
    ).toBe(true);
    // A burst of 20, then 40/s: about 4.5 s; unthrottled the host answers 200 guesses in well under 1 s.
    expect(elapsed).toBeGreaterThan(((guesses - 20) / GUESSES_PER_SECOND) * 1000 * 0.8);
    await new Promise((r) => setTimeout(r, 100));
    const ok = await connect({ url: fx.host.url, token: fx.host.token, timeoutMs: 10_000 });
    ok.close();
    console.log(
      `token guessing: ${guesses} wrong tokens answered in ${elapsed} ms (${((guesses / elapsed) * 1000).toFixed(0)}/s)`,
    );
  });
});

// clause H14: the settings file that carries the token is 0600 and out of git status.
describe('token at rest and integers', () => {
  it('writes the settings file 0600 and keeps it out of git status', () => {
    expect(statSync(join(fx.ws.dir, '.vscode/settings.json')).mode & 0o777).toBe(0o600);
    expect(
      execFileSync('git', [
        '-C',
        fx.ws.dir,
        '-c',
        'core.fsmonitor=false',
        'status',
        '--porcelain',
        '--untracked-files=all',
      ]).toString(),
    ).not.toContain('.vscode');
  });
  it('refuses an index git would misread instead of restoring another version', async () => {
    const before = file('src/shapes.ts');
    expect(await errorCode(fx.client.historyRollback({ filePath: 'src/shapes.ts', toIndex: 1e21 }))).toBe(
      'INVALID_REQUEST',
    );
    expect(await errorCode(fx.client.historyDiff({ filePath: 'src/shapes.ts', fromIndex: 1, toIndex: 1e21 }))).toBe(
      'INVALID_REQUEST',
    );
    expect(file('src/shapes.ts').equals(before)).toBe(true);
  });
});
