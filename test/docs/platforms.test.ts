// The platforms workflow (.github/workflows/platforms.yml), the unit tests it leaves out per OS
// (vitest.platforms.config.ts) and docs/platforms.md agree: the workflow is valid for GitHub, runs the
// three OSes, the unit tests through that config and idea-server's conformance run with options its
// bins know; every exclusion names test files that exist, and the doc names each of them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/build';
import { compileGlob } from '../../server-core/search/glob';
import { excludedOn, PLATFORM_EXCLUSIONS } from '../../vitest.platforms.config';
import { runScripts, stepScript } from '../support/workflow-yaml';

const workflow = readFileSync(join(ROOT, '.github', 'workflows', 'platforms.yml'), 'utf8');
const doc = readFileSync(join(ROOT, 'docs', 'platforms.md'), 'utf8');

describe('the platforms workflow', () => {
  it('is a valid GitHub workflow, and the validator does reject a broken one', () => {
    expect(validateWorkflow(workflow).errors).toEqual([]);
    expect(validateWorkflow(workflow.replace(/^jobs:/m, 'jobz:')).errors.length).toBeGreaterThan(0);
    expect(validateWorkflow(workflow.replace('runs-on: ${{ matrix.os }}', 'runs-on: [')).errors.length).toBeGreaterThan(
      0,
    );
  });

  it('runs on Linux, macOS and Windows, each to its end whatever the others do, by hand or weekly', () => {
    const oses = [...workflow.matchAll(/^\s+- os: (\S+)$/gm)].map((m) => m[1]);
    expect(oses).toEqual(['ubuntu-latest', 'macos-latest', 'windows-latest']);
    expect(workflow).toMatch(/^\s+fail-fast: false$/m);
    expect(workflow).toMatch(/^ {2}workflow_dispatch:$/m);
  });

  it('no ${{ }} expression inside a run script (values reach the shell as environment variables)', () => {
    const scripts = runScripts(workflow);
    expect(scripts.length).toBeGreaterThan(3);
    expect(scripts.filter((s) => s.includes('${{'))).toEqual([]);
  });

  it('runs the unit and timed projects through vitest.platforms.config.ts', () => {
    expect(stepScript(workflow, 'Unit tests this OS can run')).toMatch(
      /npx vitest run --config vitest\.platforms\.config\.ts --project unit --project timed /,
    );
  });

  it('runs the built suite against the built idea-server, with options each bin knows', () => {
    const script = stepScript(workflow, 'idea-server against the conformance suite');
    expect(script).toContain('npm run build:server');
    expect(script).toContain('npm run build:conformance');
    expect(script).toMatch(/node idea-server\/dist\/idea-server\.mjs --workspace "\$fixture"/);
    expect(script).toMatch(/node conformance\/dist\/idea-conformance\.mjs run --workspace "\$fixture" --url "\$url"/);
    // The token travels in the environment only.
    expect(script).not.toMatch(/--token/);
    expect(script).toMatch(/export IDEA_SERVER_TOKEN IDEA_TOKEN=/);
    // idea-server's usage line names every flag it parses.
    const usage = /export const USAGE = `([^`]*)`/.exec(
      readFileSync(join(ROOT, 'idea-server', 'src', 'args.ts'), 'utf8'),
    )![1]!;
    const serverLine = /idea-server\.mjs([^>]*)>/.exec(script.replace(/\\\n\s*/g, ' '))![1]!;
    for (const flag of serverLine.match(/--[a-z-]+/g)!)
      expect(usage.split(/[\s[\]]+/), `idea-server ${flag}`).toContain(flag);
    const cli = readFileSync(join(ROOT, 'conformance', 'cli.ts'), 'utf8');
    const runLine = /idea-conformance\.mjs run([^|]*?)\|\|/.exec(script.replace(/\\\n\s*/g, ' '))![1]!;
    const flags = [...new Set(runLine.match(/--[a-z-]+/g))];
    expect(flags.length).toBeGreaterThan(3);
    for (const flag of flags)
      expect(cli, `idea-conformance ${flag}`).toMatch(new RegExp(`['"]?${flag.slice(2)}['"]?: \\{ type:`));
    // What the bin logs when it serves, which the step waits for.
    const serve = readFileSync(join(ROOT, 'idea-server', 'src', 'serve.ts'), 'utf8');
    expect(serve).toContain('`serving ${workspace} on ${server.url}');
    expect(readFileSync(join(ROOT, 'idea-server', 'src', 'bin.ts'), 'utf8')).toContain('log(`ready in ');
  });
});

describe('the unit tests each OS leaves out', () => {
  const unitTests = (readdirSync(join(ROOT, 'test'), { recursive: true }) as string[])
    .map((f) => `test/${f.split('\\').join('/')}`)
    .filter((f) => f.endsWith('.test.ts') && !f.endsWith('.live.test.ts'));

  it('every glob names unit test files that exist (a rename shows here), each with a reason', () => {
    for (const e of PLATFORM_EXCLUSIONS) {
      expect(e.reason.length, e.files.join()).toBeGreaterThan(20);
      for (const glob of e.files) {
        const g = compileGlob(glob);
        expect(unitTests.filter((f) => g.matches(f)).length, glob).toBeGreaterThan(0);
      }
    }
  });

  it('Linux leaves out nothing for being Linux; macOS what needs Linux; Windows that and what needs POSIX', () => {
    const byOs = (p: NodeJS.Platform) => new Set(excludedOn(p));
    const envOnly = new Set(PLATFORM_EXCLUSIONS.filter((e) => e.excluded('linux')).flatMap((e) => e.files));
    expect([...byOs('linux')].filter((f) => !envOnly.has(f))).toEqual([]);
    const mac = byOs('darwin');
    expect(mac.has('test/livehost/**')).toBe(true);
    expect(mac.has('test/runtime/registry.test.ts')).toBe(false);
    const win = byOs('win32');
    expect([...mac].filter((f) => !win.has(f))).toEqual([]);
    expect(win.has('test/runtime/registry.test.ts')).toBe(true);
  });

  it('docs/platforms.md names every file or glob left out, and the config', () => {
    expect(doc).toContain('vitest.platforms.config.ts');
    expect(doc).toContain('.github/workflows/platforms.yml');
    const missing = PLATFORM_EXCLUSIONS.flatMap((e) => e.files).filter((f) => !doc.includes(`\`${f}\``));
    expect(missing).toEqual([]);
  });
});
