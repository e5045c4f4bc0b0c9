// The GitHub Action and the example workflow implementers copy are checked against GitHub's published
// schemas (@action-validator/core, offline), and the options the action passes to idea-conformance are
// ones the CLI accepts, so neither can rot unnoticed.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateAction, validateWorkflow } from '@action-validator/core';

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
    const scripts = (yml: string) => [...yml.matchAll(/^(\s*)(?:- )?run: \|\n((?:\1\s+.*\n|\s*\n)*)|^\s*(?:- )?run: (?!\|)(.*)$/gm)].map((m) => m[2] ?? m[3] ?? '');
    for (const [name, yml] of [['action.yml', action], ['ci/github-workflow.yml', workflow]] as const) {
      const found = scripts(yml);
      expect(found.length, name).toBeGreaterThan(0);
      expect(found.filter((s) => s.includes('${{')), name).toEqual([]);
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
    for (const o of new Set(used)) expect(cli, `idea-conformance has no --${o}`).toMatch(new RegExp(`['"]?${o}['"]?: \\{ type:`));
  });
});
