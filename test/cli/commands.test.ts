import { describe, expect, it } from 'vitest';
import { commandsFromSpec, findCommand, kebab } from '../../cli/src/commands';
import { TOPICS } from '../../generated/current';
import { CMDS, SPEC } from './spec';

const cmd = (name: string) => CMDS.find((c) => c.name === name)!;

describe('commands derived from the spec', () => {
  it('one per topic of the index, named by the topic, with an alias only where the action is unique', () => {
    // …but the topics the session serves itself (events/subscribe, /unsubscribe): `idea watch` uses them.
    const session = SPEC.topics.filter((t) => t.servedBy === 'session').map((t) => t.topic);
    expect(session).toEqual(['/app/vscode/events/subscribe', '/app/vscode/events/unsubscribe']);
    // Then the presets (`idea callers`: a topic with params fixed, symbols.test.ts), after the topics.
    const topics = CMDS.filter((c) => !c.fixed);
    expect(topics.map((c) => c.topic)).toEqual(TOPICS.map((t) => t.topic).filter((t) => !session.includes(t)));
    expect(CMDS.slice(topics.length).every((c) => c.fixed)).toBe(true);
    expect(CMDS.map((c) => c.name)).toContain('fs/findFiles');
    const aliases = topics
      .filter((c) => c.alias)
      .map((c) => c.alias)
      .sort();
    expect(aliases).toEqual([
      'apply',
      'applyCodeAction',
      'callHierarchy',
      'codeActions',
      'context',
      'definition',
      'find',
      'findFiles',
      'findSymbol',
      'format',
      'hover',
      'implementation',
      'move',
      'open',
      'references',
      'referencingSymbols',
      'rename',
      'replace',
      'symbols',
      'transactions',
      'typeDefinition',
      'undo',
      'workspaceSymbols',
    ]);
  });

  it('v0.1.8 writes read naturally: idea mv, and idea apply takes its params as a file', () => {
    expect(cmd('fs/move').shortNames).toEqual(['mv']);
    expect(cmd('edit/apply').paramsFile).toBe(true);
    expect(cmd('edit/apply').positionals).toEqual([]);
    // Only a topic with a required field that takes JSON: the others take words.
    expect(CMDS.filter((c) => c.paramsFile).map((c) => c.name)).toEqual(['edit/apply']);
    expect(cmd('edit/undo').positionals.map((p) => p.name)).toEqual(['transactionId']);
  });

  it('flags carry the schema: type, default, enum (through $ref), minimum, required, description', () => {
    const find = cmd('edit/find');
    expect(find.params.map((p) => p.flag)).toEqual([
      '--pattern',
      '--include',
      '--exclude',
      '--is-regex',
      '--is-case-sensitive',
    ]);
    expect(find.params.find((p) => p.name === 'isRegex')).toMatchObject({
      type: 'boolean',
      default: false,
      required: false,
    });
    expect(find.params.find((p) => p.name === 'include')).toMatchObject({
      type: 'string',
      default: '**/*',
      description: 'Files to search (default: **/*)',
    });
    expect(cmd('history/list').params.find((p) => p.name === 'maxCount')).toMatchObject({
      type: 'integer',
      minimum: 1,
      default: 20,
    });
    expect(cmd('diag/list').params.find((p) => p.name === 'severity')).toMatchObject({
      type: 'string',
      enum: ['error', 'warning', 'information', 'hint', 'all'],
      default: 'all',
    });
    // anyOf [FilePath, FilePath[]]: one value or several
    expect(cmd('diag/list').params.find((p) => p.name === 'filePath')).toMatchObject({
      type: 'string',
      repeatable: true,
      acceptsScalar: true,
      required: false,
    });
    // Since 0.1.8 line and character or namePath (anyOf): still the positionals after the file.
    expect(cmd('nav/definition').params.find((p) => p.name === 'line')).toMatchObject({
      type: 'integer',
      minimum: 0,
      required: false,
      position: 1,
    });
  });

  it('the required scalar params are positional, in the schema order', () => {
    const pos = (n: string) => cmd(n).positionals.map((p) => p.name);
    expect(pos('edit/find')).toEqual(['pattern']);
    expect(pos('edit/replace')).toEqual(['pattern', 'replacement']);
    expect(pos('nav/definition')).toEqual(['filePath', 'line', 'character']);
    expect(pos('history/rollback')).toEqual(['filePath', 'toIndex']);
    expect(pos('diag/list')).toEqual(['filePath']); // its optional file param, last
  });

  it('finds a command by category and action, by name, by full topic, by alias, ignoring case and dashes', () => {
    const name = (w: string[]) => findCommand(CMDS, w)?.command.name;
    expect(name(['history', 'list'])).toBe('history/list');
    expect(name(['history/list', 'src/a.ts'])).toBe('history/list');
    expect(name(['/app/vscode/fs/findFiles'])).toBe('fs/findFiles');
    expect(name(['find-files'])).toBe('fs/findFiles');
    expect(name(['fs', 'find-files'])).toBe('fs/findFiles');
    expect(name(['find', 'x'])).toBe('edit/find');
    expect(name(['list'])).toBeUndefined();
    expect(findCommand(CMDS, ['history', 'src/a.ts'])).toBeUndefined();
  });

  it('refuses a param that would shadow a flag of the CLI itself', () => {
    const topic = { ...SPEC.topics[0]!, params: { type: 'object', properties: { json: { type: 'boolean' } } } };
    expect(() => commandsFromSpec({ version: 'x', topics: [topic] })).toThrow(
      /param json collides with the CLI's own flag --json/,
    );
  });

  it('kebab-cases camelCase', () => {
    expect([kebab('isCaseSensitive'), kebab('filePath'), kebab('query')]).toEqual([
      'is-case-sensitive',
      'file-path',
      'query',
    ]);
  });
});
