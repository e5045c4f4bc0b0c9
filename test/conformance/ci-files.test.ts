// The GitHub Action and the example workflow implementers copy are checked against GitHub's published
// schemas (@action-validator/core, offline), and the options the action passes to idea-conformance are
// ones the CLI accepts, so neither can rot unnoticed. The workflow's server step runs, as bash, against
// a server that registers late.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { validateAction, validateWorkflow } from '@action-validator/core';
import { describe, expect, it } from 'vitest';
import { listRegisteredServers } from '../../runtime/registry';
import { runScripts, stepScript } from '../support/workflow-yaml';

const read = (p: string) => readFileSync(new URL(`../../conformance/${p}`, import.meta.url), 'utf8');
const action = read('action.yml');
const workflow = read('ci/github-workflow.yml');

describe('CI files for implementers', () => {
  it('the composite action is a valid GitHub action', () => {
    expect(validateAction(action).errors).toEqual([]);
  });

  it('the example workflow is a valid GitHub workflow that uses the action', () => {
    expect(validateWorkflow(workflow).errors).toEqual([]);
    expect(workflow).toMatch(/uses: [\w-]+\/idea-kit\/conformance@/);
  });

  it('the validator does reject broken files (so the checks above can fail)', () => {
    expect(validateAction(action.replace('using: composite', 'using: compost')).errors.length).toBeGreaterThan(0);
    expect(validateAction(action.replace(/^runs:/m, 'ruins:')).errors.length).toBeGreaterThan(0);
    expect(validateWorkflow(workflow.replace('runs-on: ubuntu-latest', 'runs-on: [')).errors.length).toBeGreaterThan(0);
    expect(validateWorkflow(workflow.replace(/^jobs:/m, 'jobz:')).errors.length).toBeGreaterThan(0);
  });

  it('no ${{ }} expression inside a run script (inputs reach the shell as environment variables, never as script text)', () => {
    const scripts = runScripts;
    for (const [name, yml] of [
      ['action.yml', action],
      ['ci/github-workflow.yml', workflow],
    ] as const) {
      const found = scripts(yml);
      expect(found.length, name).toBeGreaterThan(0);
      expect(
        found.filter((s) => s.includes('${{')),
        name,
      ).toEqual([]);
    }
    // The check sees one when it is there.
    expect(scripts(action.replace('"$IDEA_URL"', '"${{ inputs.url }}"')).some((s) => s.includes('${{'))).toBe(true);
  });

  it('passes the token through the environment and only options the CLI knows', () => {
    expect(action).toContain('IDEA_TOKEN: ${{ inputs.token }}');
    expect(action).not.toMatch(/--token/);
    const cli = readFileSync(new URL('../../conformance/cli.ts', import.meta.url), 'utf8');
    const used = [...action.matchAll(/--([a-z][a-z-]+)/g)].map((m) => m[1]!).filter((o) => o !== 'yes');
    expect(used.length).toBeGreaterThan(2);
    for (const o of new Set(used))
      expect(cli, `idea-conformance has no --${o}`).toMatch(new RegExp(`['"]?${o}['"]?: \\{ type:`));
  });
});

describe('the example workflow, run', () => {
  const ROOT = resolve(import.meta.dirname, '../..');

  it.each(['registry', 'settings'])(
    'the server step waits for the server to say where it is (%s) and outputs its url and token, though the settings file exists before',
    async (via) => {
      const tmp = mkdtempSync(join(tmpdir(), 'idea-ci-recipe-'));
      try {
        const fixture = join(tmp, 'idea-fixture');
        // As `idea-conformance workspace` leaves it: a settings file without the server's keys.
        mkdirSync(join(fixture, '.vscode'), { recursive: true });
        writeFileSync(join(fixture, '.vscode', 'settings.json'), '{\n  "files.exclude": { "hidden/**": true }\n}\n');
        mkdirSync(join(tmp, 'scripts'));
        const start = join(tmp, 'scripts', 'start-idea-server.sh');
        writeFileSync(
          start,
          `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs')}" "${join(ROOT, 'test', 'conformance', 'late-server.ts')}" "$1"\n`,
        );
        chmodSync(start, 0o755);
        const output = join(tmp, 'github-output');
        writeFileSync(output, '');
        const script = stepScript(workflow, 'Start your server on the fixture workspace');
        const started = Date.now();
        const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((res) => {
          const child = spawn('bash', ['-e', '-c', script], {
            cwd: tmp,
            env: {
              ...process.env,
              RUNNER_TEMP: tmp,
              GITHUB_OUTPUT: output,
              IDEA_LATE_MS: '3000',
              IDEA_LATE_LIFE_MS: '20000',
              IDEA_LATE_VIA: via,
              IDEA_LATE_TOKEN: 'late-token-0123456789',
              IDEA_REGISTRY_DIR: '',
            },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
          child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
          // The step leaves the server running (its own process group is the runner's business here).
          child.on('exit', (code) => res({ code, stdout, stderr }));
        });
        const listing = await listRegisteredServers({ dir: join(tmp, 'idea-registry'), clean: false });
        for (const s of listing.servers) process.kill(s.pid); // the settings variant ends itself (IDEA_LATE_LIFE_MS)
        expect(r.code, r.stderr).toBe(0);
        expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
        expect(listing.servers).toHaveLength(via === 'registry' ? 1 : 0);
        const port =
          via === 'registry'
            ? listing.servers[0]!.port
            : (JSON.parse(readFileSync(join(fixture, '.vscode', 'settings.json'), 'utf8')) as Record<string, number>)[
                'idea.server.port'
              ];
        expect(port).toBeGreaterThan(0);
        expect(readFileSync(output, 'utf8')).toBe(`url=ws://127.0.0.1:${port}\ntoken=late-token-0123456789\n`);
        expect(r.stdout).toContain('::add-mask::late-token-0123456789');
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    },
    90_000,
  );
});

describe("the action's inputs", () => {
  it('exposes profile, require-topics, assume-version and reporter, each reaching the run step', () => {
    const inputs = [
      ...action.slice(action.indexOf('\ninputs:'), action.indexOf('\noutputs:')).matchAll(/^ {2}([a-z-]+):$/gm),
    ].map((m) => m[1]!);
    expect(inputs).toEqual(
      expect.arrayContaining(['url', 'token', 'workspace', 'profile', 'require-topics', 'assume-version', 'reporter']),
    );
    for (const i of inputs) expect(action, i).toContain(`\${{ inputs.${i} }}`);
  });

  it('the run step passes them as idea-conformance options (run with bash, npx replaced by an echo)', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'idea-ci-action-'));
    try {
      mkdirSync(join(tmp, 'bin'));
      writeFileSync(join(tmp, 'bin', 'npx'), '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n');
      chmodSync(join(tmp, 'bin', 'npx'), 0o755);
      const env = {
        PATH: `${join(tmp, 'bin')}:${process.env.PATH}`,
        IDEA_URL: 'ws://127.0.0.1:7200',
        IDEA_WORKSPACE: '/ws',
        IDEA_JUNIT: 'reports/x.xml',
        IDEA_ARGS: '--topic edit/find',
        IDEA_PROFILE: 'core,security',
        IDEA_REQUIRE_TOPICS: 'all',
        IDEA_ASSUME_VERSION: '0.1.5',
        IDEA_REPORTER: ' markdown , json:reports/c.json,',
        IDEA_PACKAGE_VERSION: '1.2.3',
      };
      const r = spawnSync('bash', ['-e', '-c', stepScript(action, 'Run the conformance suite')], {
        cwd: tmp,
        env,
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trimEnd().split('\n')).toEqual([
        '--yes',
        '@idea-kit/conformance@1.2.3',
        'run',
        '--url',
        'ws://127.0.0.1:7200',
        '--workspace',
        '/ws',
        '--reporter',
        'console',
        '--reporter',
        'github',
        '--reporter',
        'junit:reports/x.xml',
        '--profile',
        'core,security',
        '--require-topics',
        'all',
        '--assume-version',
        '0.1.5',
        '--reporter',
        'markdown',
        '--reporter',
        'json:reports/c.json',
        '--topic',
        'edit/find',
      ]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
