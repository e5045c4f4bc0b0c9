// Import boundaries of docs/ARCHITECTURE.md, checked by `npm run lint` (depcruise resolves every import to a
// real file, so a relative `../../x` and a package name that lands in the same sources are judged alike).
// Who may import `vscode` is a Biome rule (biome.json): depcruise cannot resolve a types-only module.
const APPS = '(extension|idea-server|cli|mcp|conformance|spec-tools|livehost)';
// Shared libraries the apps use: the spec library, the result text (CLI, MCP), the VS Code-free server core.
const LIBS = '(spec-lib|result-text|server-core)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'protocol-layer-imports-no-app',
      comment:
        'runtime/ and generated/ are what @idea-kit/protocol compiles: they import each other and npm packages, ' +
        'never an app, a tool, a test or the codegen.',
      severity: 'error',
      from: { path: '^(runtime|generated)/' },
      to: { path: `^(${APPS.slice(1, -1)}|${LIBS.slice(1, -1)}|codegen|bench|test|scripts)/` },
    },
    {
      name: 'no-app-reaches-into-another',
      comment:
        'An app uses another only as a declared workspace package (its package.json exports), never its sources ' +
        'by relative path.',
      severity: 'error',
      from: { path: `^${APPS}/` },
      to: { path: `^${APPS}/`, pathNot: '^$1/', dependencyTypesNot: ['aliased-workspace'] },
    },
    {
      name: 'codegen-internals-stay-in-codegen',
      comment: 'The spec is read through the spec library (spec-lib/), not through codegen/src.',
      severity: 'error',
      from: { pathNot: '^(codegen|test)/' },
      to: { path: '^codegen/src/' },
    },
    {
      name: 'libraries-import-no-app',
      comment:
        'The shared libraries sit under the apps: they may use runtime/ and generated/, never an app or codegen.',
      severity: 'error',
      from: { path: `^${LIBS}/` },
      to: { path: `^(${APPS.slice(1, -1)}|codegen|bench|test|scripts)/` },
    },
    {
      name: 'sources-import-no-tests',
      comment: "Benchmarks and programs use their own helpers or the packages' public API, never test files.",
      severity: 'error',
      from: { pathNot: '^test/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-circular',
      comment:
        'No module reaches itself through its imports (types included): a circle has no first module to read. ' +
        'Types two modules share go to a leaf module of their own.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|out|reports)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.mts', '.js', '.mjs', '.cjs', '.d.ts', '.json'],
    },
  },
};
