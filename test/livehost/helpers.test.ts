// Unit tests of the launcher's helpers (no VS Code started).
import { spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { linkExtension } from '../../livehost/extension-link';
import { findChromium, findCodeServer } from '../../livehost/paths';
import { portOwnedByGroup } from '../../livehost/port-owner';
import { freePort } from '../../livehost/ports';
import { groupPids, PeakSampler, processTable, sampleTreeMemory, treePids } from '../../livehost/proc-memory';
import { readReadySignal, restoreWorkspaceSettings, snapshotSettings } from '../../livehost/ready-signal';
import { createRunFolder, isolatedEnv, removeRunFolder } from '../../livehost/run-folder';
import { writeUserSettings } from '../../livehost/user-settings';
import { parseJsonc } from '../../runtime/jsonc';
import { until } from '../support/wait';

const tmp = mkdtempSync(join(tmpdir(), 'idea-livehost-unit-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('parseJsonc', () => {
  it('drops comments and trailing commas but keeps comment-like text inside strings', () => {
    const text =
      '\ufeff{\n  // line comment\n  "a": "http://x/*y*/", /* block */ "b": [1, 2, ], "c": "say \\"//hi\\"",\n}\n';
    expect(parseJsonc(text)).toEqual({ a: 'http://x/*y*/', b: [1, 2], c: 'say "//hi"' });
  });
  it('keeps commas followed by a comment and then a value', () => {
    expect(parseJsonc('{"a": 1, // one\n "b": 2 /* two */, }')).toEqual({ a: 1, b: 2 });
  });
  it('rejects malformed input', () => {
    expect(() => parseJsonc('{"a": }')).toThrow();
  });
});

describe('ready signal', () => {
  const ws = join(tmp, 'ws');
  const file = join(ws, '.vscode', 'settings.json');
  mkdirSync(join(ws, '.vscode'), { recursive: true });

  it('needs a valid port; the token is taken when valid (the registry has it when exposeToken is off)', () => {
    writeFileSync(file, '{ "idea.server.authToken": "t" }');
    expect(readReadySignal(ws, undefined)).toBeUndefined();
    writeFileSync(file, '{ "idea.server.port": 70000, "idea.server.authToken": "t" }');
    expect(readReadySignal(ws, undefined)).toBeUndefined();
    writeFileSync(file, '{ "idea.server.port": 7201 }');
    expect(readReadySignal(ws, undefined)).toEqual({ port: 7201, settingsText: '{ "idea.server.port": 7201 }' });
    writeFileSync(file, '{ "idea.server.port": 7201, "idea.server.authToken": "" }');
    expect(readReadySignal(ws, undefined)?.token).toBeUndefined();
    writeFileSync(file, '{ // by the extension\n "idea.server.port": 7201, "idea.server.authToken": "tok", }');
    expect(readReadySignal(ws, undefined)).toMatchObject({ port: 7201, token: 'tok' });
  });

  it('ignores a signal left by an earlier run until the file is rewritten', () => {
    writeFileSync(file, '{ "idea.server.port": 7201, "idea.server.authToken": "old" }');
    utimesSync(file, new Date(1_000_000), new Date(1_000_000));
    const before = snapshotSettings(ws);
    expect(readReadySignal(ws, before)).toBeUndefined();
    writeFileSync(file, '{ "idea.server.port": 7202, "idea.server.authToken": "new" }');
    expect(readReadySignal(ws, before)).toMatchObject({ port: 7202, token: 'new' });
  });

  it('restores the pre-launch settings file (or its absence) unless it was edited after the signal', () => {
    const ws2 = join(tmp, 'ws-restore');
    mkdirSync(ws2);
    const f2 = join(ws2, '.vscode', 'settings.json');
    // No file before: the file and the .vscode folder the extension created go away.
    mkdirSync(join(ws2, '.vscode'));
    writeFileSync(f2, '{"idea.server.port": 1, "idea.server.authToken": "a"}');
    expect(restoreWorkspaceSettings(ws2, undefined, readReadySignal(ws2, undefined)!)).toBe('restored');
    expect(existsSync(join(ws2, '.vscode'))).toBe(false);
    // A file before: its exact text comes back.
    const original = '// mine\n{ "editor.tabSize": 3, }\n';
    mkdirSync(join(ws2, '.vscode'));
    writeFileSync(f2, original);
    const before = snapshotSettings(ws2);
    writeFileSync(f2, '{"editor.tabSize": 3, "idea.server.port": 2, "idea.server.authToken": "b"}');
    const sig = readReadySignal(ws2, before)!;
    expect(restoreWorkspaceSettings(ws2, before, sig)).toBe('restored');
    expect(readFileSync(f2, 'utf8')).toBe(original);
    // Edited during the session: left alone.
    writeFileSync(f2, '{"idea.server.port": 2, "idea.server.authToken": "b", "user": "edit"}');
    expect(restoreWorkspaceSettings(ws2, before, sig)).toBe('changed-since');
    expect(readFileSync(f2, 'utf8')).toContain('"user": "edit"');
  });

  it('treats a half-written file as not ready', () => {
    writeFileSync(file, '{ "idea.server.port": 7201, "idea.serv');
    expect(readReadySignal(ws, undefined)).toBeUndefined();
  });
});

describe('run folder', () => {
  it('creates the layout, isolates HOME/TMPDIR, and is removed entirely', () => {
    const f = createRunFolder(join(tmp, 'runs'));
    for (const d of [f.userDataDir, f.extensionsDir, f.home, f.tmp, f.chromeProfile]) expect(existsSync(d)).toBe(true);
    const env = isolatedEnv(f);
    expect(env.HOME).toBe(f.home);
    expect(env.XDG_CONFIG_HOME!.startsWith(f.dir)).toBe(true);
    expect(env.TMPDIR).toBe(f.tmpForHost);
    removeRunFolder(f);
    expect(existsSync(f.dir)).toBe(false);
  });

  it('gives the host a short TMPDIR symlink when the run folder is too deep for unix socket paths', () => {
    const deep = join(tmp, 'x'.repeat(40), 'y'.repeat(40));
    const f = createRunFolder(deep);
    expect(f.tmpForHost).not.toBe(f.tmp);
    expect(f.tmpForHost.length + 1 + 52).toBeLessThanOrEqual(107);
    expect(lstatSync(f.tmpForHost).isSymbolicLink()).toBe(true);
    expect(readlinkSync(f.tmpForHost)).toBe(f.tmp);
    removeRunFolder(f);
    expect(existsSync(f.tmpForHost)).toBe(false);
    expect(existsSync(f.dir)).toBe(false);
  });
});

describe('user settings and extension link', () => {
  it('merges quiet defaults, the extension port and overrides (overrides win)', () => {
    const udd = join(tmp, 'udd');
    const s = writeUserSettings(udd, 45678, { 'git.autofetch': true, 'idea.server.authEnabled': true });
    expect(s['idea.server.port']).toBe(45678);
    expect(s['git.autofetch']).toBe(true);
    expect(s['telemetry.telemetryLevel']).toBe('off');
    expect(s['workbench.localHistory.enabled']).toBe(true);
    // VS Code's own git would run the fixture workspace's planted git programs (conformance/workspace/traps.ts).
    expect(s['git.enabled']).toBe(false);
    expect(parseJsonc(readFileSync(join(udd, 'User', 'settings.json'), 'utf8'))).toEqual(s);
  });

  it('links <publisher>.<name>-<version> and rejects incomplete manifests', () => {
    const ext = join(tmp, 'ext');
    const exts = join(tmp, 'exts');
    mkdirSync(ext);
    mkdirSync(exts);
    writeFileSync(
      join(ext, 'package.json'),
      JSON.stringify({ publisher: 'pub', name: 'n', version: '1.2.3', main: './main' }),
    );
    writeFileSync(join(ext, 'main.js'), '');
    const linked = linkExtension(ext, exts);
    expect(linked.id).toBe('pub.n');
    expect(readlinkSync(join(exts, 'pub.n-1.2.3'))).toBe(ext);
    writeFileSync(join(ext, 'package.json'), JSON.stringify({ name: 'n', version: '1.2.3' }));
    expect(() => linkExtension(ext, exts)).toThrow(/lacks "publisher"/);
  });
});

describe('process trees and memory', () => {
  it('finds a detached child group, sums its memory, and tracks peaks', async () => {
    // A shell in its own group that forks a second process: both must be seen in tree and group.
    const child = spawn('sh', ['-c', 'sleep 30 & wait'], { detached: true, stdio: 'ignore' });
    try {
      const pid = child.pid!;
      await until('the shell to fork its second process', () => treePids(pid).length === 2, {
        detail: () => treePids(pid),
      });
      expect(groupPids(pid).sort()).toEqual(treePids(pid).sort());
      const m = sampleTreeMemory(pid);
      expect(m.procs).toBe(2);
      expect(m.rssMB).toBeGreaterThan(0);
      expect(m.pssMB).toBeGreaterThan(0);
      expect(m.pssMB).toBeLessThanOrEqual(m.rssMB);
      const sampler = new PeakSampler(() => ({ child: pid, self: process.pid }), 50);
      let samples = 0;
      const sample = sampler.sample.bind(sampler);
      sampler.sample = () => {
        samples++;
        sample();
      };
      sampler.start();
      await until('two samples of the interval after the first', () => samples >= 3);
      const peak = sampler.stop();
      expect(peak.child!.procs).toBe(2);
      expect(peak.total!.rssMB).toBeGreaterThanOrEqual(peak.self!.rssMB);
      expect(peak.self!.rssMB).toBeGreaterThan(10);
    } finally {
      process.kill(-child.pid!, 'SIGKILL');
    }
    await until('the killed group to be gone', () => groupPids(child.pid!).length === 0, {
      detail: () => groupPids(child.pid!),
    });
  });
});

describe('portOwnedByGroup', () => {
  it('tells whether a listening port belongs to a process group', async () => {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      ['-e', `require('net').createServer().listen(${port}, '127.0.0.1', () => console.log('up'))`],
      { detached: true, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    try {
      await new Promise((r) => child.stdout!.once('data', r));
      expect(portOwnedByGroup(port, child.pid!)).toBe(true);
      const ownGroup = processTable().get(process.pid)!.pgrp;
      expect(ownGroup).not.toBe(child.pid);
      expect(portOwnedByGroup(port, ownGroup)).toBe(false);
    } finally {
      process.kill(-child.pid!, 'SIGKILL');
    }
    await until('nobody to listen on the port any more', () => portOwnedByGroup(port, child.pid!) === undefined);
  });
});

describe('finding the binaries', () => {
  it('points at scripts/install-host.sh when code-server or Chromium is missing, and honours overrides', () => {
    const empty = join(tmp, 'empty-cache');
    expect(() => findCodeServer({ IDEA_KIT_CACHE: empty })).toThrow(
      /code-server-4\.100\.3.*run `bash scripts\/install-host\.sh`/,
    );
    const fake = join(tmp, 'fake-code-server');
    writeFileSync(fake, '#!/bin/sh\n');
    expect(findCodeServer({ IDEA_KIT_CACHE: empty, IDEA_CODE_SERVER: fake })).toBe(fake);
    expect(() => findChromium({ IDEA_CHROMIUM: join(tmp, 'no-chromium') })).toThrow(/install-host\.sh/);
  });
});
