// Which language server serves which file: a server per language, a language per file extension.
// The TypeScript/JavaScript server is typescript-language-server resolved from node_modules; any other
// comes from configuration as `LANG=COMMAND` (e.g. `python=pyright-langserver --stdio`).
// typescript-language-server runs the tsserver it is given; given none (or a path that is not a file)
// it runs the workspace's node_modules/typescript found walking up from the workspace: code a cloned
// repository chose (issue 30). So idea-server gives it its own, checked before every start, and lets
// the workspace's run only with --trust-workspace (runtime/programs.ts has the whole rule).
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';

export interface ServerCommand {
  /** The language the server is for: the key of its process and of its error messages. */
  language: string;
  command: string;
  args: string[];
  /** Sent as the initialize request's initializationOptions. */
  initializationOptions?: unknown;
  /** typescript-language-server: answers shown as VS Code's TypeScript extension shows them (vscode-typescript.ts). */
  vscodeTypeScript?: boolean;
  /** Checked before every start: why the server must not start (it is then unavailable), or undefined. */
  preflight?(): string | undefined;
}

/** A file's language server key and the LSP languageId its didOpen carries. */
export interface FileLanguage {
  language: string;
  languageId: string;
}

/** Extensions of the languages we know; a configured language not listed here serves `.<language>`. */
const KNOWN_EXTENSIONS: Record<string, Record<string, string>> = {
  typescript: {
    '.ts': 'typescript',
    '.mts': 'typescript',
    '.cts': 'typescript',
    '.tsx': 'typescriptreact',
    '.js': 'javascript',
    '.mjs': 'javascript',
    '.cjs': 'javascript',
    '.jsx': 'javascriptreact',
  },
  python: { '.py': 'python', '.pyi': 'python' },
  go: { '.go': 'go' },
  rust: { '.rs': 'rust' },
  c: { '.c': 'c', '.h': 'c' },
  cpp: { '.cpp': 'cpp', '.cc': 'cpp', '.cxx': 'cpp', '.hpp': 'cpp', '.hh': 'cpp', '.hxx': 'cpp' },
  java: { '.java': 'java' },
  ruby: { '.rb': 'ruby' },
  php: { '.php': 'php' },
  csharp: { '.cs': 'csharp' },
  lua: { '.lua': 'lua' },
  shellscript: { '.sh': 'shellscript', '.bash': 'shellscript' },
};

const LANGUAGE_NAME = /^[a-z][a-z0-9_+-]{0,63}$/;

/**
 * typescript-language-server's initializationOptions, wherever it comes from:
 * - no syntax-only tsserver: it answers definition/references before the project has loaded, with the
 *   import line instead of the declaration; one semantic tsserver makes them wait for it instead;
 * - no automatic type acquisition: its typings installer is a second Node process (about 45 MB, a
 *   fifth of the tree) that fetches @types packages from the npm registry into the user's cache, which
 *   a headless server must not do behind its users' backs (`npm i -D @types/…` in the workspace works).
 */
export const TYPESCRIPT_INITIALIZATION_OPTIONS = {
  tsserver: { useSyntaxServer: 'never' },
  disableAutomaticTypingAcquisition: true,
} as const;

/** idea-server's own TypeScript: the `typescript` package it depends on. */
export interface OwnTypeScript {
  /** Its lib/tsserver.js. */
  tsserver: string;
  version: string;
}

/**
 * idea-server's own TypeScript, resolved from this module as its dependencies are (from the sources
 * and from the bundle alike: `typescript` stays outside the bundle, scripts/build.ts). Throws why not.
 */
export function ownTypeScript(): OwnTypeScript {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('typescript/package.json');
  const { version } = require(pkgPath) as { version?: unknown };
  const tsserver = join(dirname(pkgPath), 'lib', 'tsserver.js');
  const why = notAFile(tsserver);
  if (why) throw new Error(why);
  return { tsserver, version: typeof version === 'string' ? version : 'unknown version' };
}

function notAFile(path: string): string | undefined {
  try {
    return statSync(path).isFile() ? undefined : `${path} is not a file`;
  } catch (e) {
    return `${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
  }
}

export interface TypeScriptOptions {
  /** --trust-workspace: typescript-language-server may run the workspace's TypeScript. */
  trustWorkspace?: boolean;
}

/** How the TypeScript server is given a tsserver: initializationOptions, the check before each start, the log line. */
export interface TypeScriptChoice {
  initializationOptions: unknown;
  preflight?(): string | undefined;
  /** What runs, for the start-up log. */
  description: string;
}

const NOT_TRUSTED = "the workspace's TypeScript is not run (--trust-workspace to allow)";

/**
 * Without --trust-workspace: idea-server's own tsserver as `tsserver.path`, checked to be a file before
 * every start (the server is unavailable otherwise: an invalid path would make typescript-language-server
 * fall back to the workspace's). With it: no path, so the workspace's TypeScript is found as an editor
 * would; idea-server's own is the fallback.
 */
export function typeScriptChoice(
  o: TypeScriptOptions = {},
  own: () => OwnTypeScript = ownTypeScript,
): TypeScriptChoice {
  let found: OwnTypeScript | undefined;
  let problem: string | undefined;
  try {
    found = own();
  } catch (e) {
    problem = (e as Error).message.split('\n')[0]; // a require error goes on with its require stack
  }
  const { tsserver, ...rest } = TYPESCRIPT_INITIALIZATION_OPTIONS;
  if (o.trustWorkspace)
    return {
      initializationOptions: { ...rest, tsserver: { ...tsserver, ...(found ? { fallbackPath: found.tsserver } : {}) } },
      description: `--trust-workspace: the workspace's TypeScript may run (its node_modules/typescript, found walking up from the workspace), else ${found ? `idea-server's own (${found.tsserver}, ${found.version})` : "typescript-language-server's"}`,
    };
  if (!found) {
    const why = `idea-server's own TypeScript was not found (${problem}); ${NOT_TRUSTED}`;
    return {
      initializationOptions: TYPESCRIPT_INITIALIZATION_OPTIONS,
      preflight: () => why,
      description: `${why}: TS/JS topics are unavailable`,
    };
  }
  const path = found.tsserver;
  return {
    initializationOptions: { ...rest, tsserver: { ...tsserver, path } },
    preflight: () => {
      const why = notAFile(path);
      return why && `idea-server's own tsserver is missing (${why}); ${NOT_TRUSTED}`;
    },
    description: `idea-server's own tsserver (${path}, ${found.version}); ${NOT_TRUSTED}`,
  };
}

/** typescript-language-server's CLI, resolved from node_modules and run by this Node, with `choice`'s tsserver. */
export function defaultTypeScriptServer(choice: TypeScriptChoice = typeScriptChoice()): ServerCommand {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('typescript-language-server/package.json');
  const pkg = require(pkgPath) as { bin?: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.['typescript-language-server'];
  if (!bin) throw new Error('typescript-language-server has no bin entry');
  return {
    language: 'typescript',
    command: process.execPath,
    args: [join(dirname(pkgPath), bin), '--stdio'],
    ...typeScriptServerOptions(choice),
  };
}

/** What every typescript-language-server we start gets, wherever the CLI comes from. */
export function typeScriptServerOptions(
  choice: TypeScriptChoice,
): Pick<ServerCommand, 'initializationOptions' | 'preflight' | 'vscodeTypeScript'> {
  return {
    initializationOptions: choice.initializationOptions,
    ...(choice.preflight ? { preflight: choice.preflight } : {}),
    vscodeTypeScript: true,
  };
}

/**
 * Parses `LANG=COMMAND`. COMMAND is split on whitespace (double or single quotes keep spaces inside one
 * argument) and run without a shell, so nothing in it is interpreted beyond that split.
 */
export function parseServerSpec(spec: string): ServerCommand {
  const eq = spec.indexOf('=');
  if (eq < 0) throw new Error(`language server spec "${spec}" is not LANG=COMMAND`);
  const language = spec.slice(0, eq).trim().toLowerCase();
  if (!LANGUAGE_NAME.test(language))
    throw new Error(`language server spec "${spec}": "${language}" is not a language name`);
  const words = splitCommand(spec.slice(eq + 1));
  const [command, ...args] = words;
  if (command === undefined) throw new Error(`language server spec "${spec}" has no command`);
  return { language, command, args };
}

export function splitCommand(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} in "${text}"`);
  if (word !== undefined) words.push(word);
  return words;
}

/** The servers in force: TypeScript by default, then each configured one (a later one replaces an earlier one of the same language). */
export function serverTable(
  configured: readonly (string | ServerCommand)[] = [],
  typescript = defaultTypeScriptServer,
): Map<string, ServerCommand> {
  const table = new Map<string, ServerCommand>();
  const given = configured.map((c) => (typeof c === 'string' ? parseServerSpec(c) : c));
  // The default is resolved only when nobody replaced it (a custom typescript= needs no node_modules).
  if (!given.some((c) => c.language === 'typescript')) table.set('typescript', typescript());
  for (const c of given) table.set(c.language, c);
  return table;
}

/** Maps a file to its language among the configured ones, by extension (case-insensitive); undefined when none serves it. */
export function languageOfFile(
  path: string,
  languages: ReadonlySet<string> | ReadonlyMap<string, unknown>,
): FileLanguage | undefined {
  const ext = extname(path).toLowerCase();
  if (!ext) return undefined;
  for (const language of languages.keys()) {
    // Own properties only: a language named "constructor" must not find Object's.
    const exts = Object.hasOwn(KNOWN_EXTENSIONS, language)
      ? KNOWN_EXTENSIONS[language]!
      : { [`.${language}`]: language };
    const languageId = Object.hasOwn(exts, ext) ? exts[ext] : undefined;
    if (languageId !== undefined) return { language, languageId };
  }
  return undefined;
}
