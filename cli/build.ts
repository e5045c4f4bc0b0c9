// Bundles the CLI into one CommonJS file, cli/dist/idea.cjs (ws and the generated validators inlined,
// so start-up reads one file), with the params schemas of the protocol version it is built for
// embedded: the subcommands are derived from them at run time (src/commands.ts).
// Run: npm run build:cli (from the repository root).
import { build, type Plugin } from "esbuild";
import { chmodSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PROTOCOL_VERSION } from "./src/protocol";
import { loadSpecDir } from "./src/spec";

const here = dirname(fileURLToPath(import.meta.url));
export const CLI_BUNDLE = join(here, "dist", "idea.cjs");

/**
 * Other protocol versions' frame validators are used only to validate a server's frames, which the CLI
 * does not ask for (it checks params before sending, against its own version's validators); bundled,
 * they were two thirds of the file (623 → 212 kB) and of its load time. In their place a module whose
 * FRAMES is undefined: the client then keeps its own version's table for an older server.
 */
const otherVersionsLeftOut: Plugin = {
  name: "other-versions-left-out",
  setup(b) {
    b.onResolve({ filter: /^\.\/v[\d.]+\/frames\.js$/ }, (args) =>
      args.path === `./v${PROTOCOL_VERSION}/frames.js` ? undefined : { path: args.path, namespace: "left-out" });
    b.onLoad({ filter: /.*/, namespace: "left-out" }, () => ({ contents: "export const FRAMES = undefined;", loader: "js" }));
  },
};

export async function buildCli(): Promise<string> {
  const spec = loadSpecDir(join(here, "..", "spec", `v${PROTOCOL_VERSION}`));
  await build({
    entryPoints: [join(here, "src", "bin.ts")],
    outfile: CLI_BUNDLE,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    // optional native speed-ups ws requires lazily
    external: ["bufferutil", "utf-8-validate"],
    define: { __IDEA_SPEC__: JSON.stringify(spec) },
    plugins: [otherVersionsLeftOut],
    banner: { js: "#!/usr/bin/env node" },
    minify: true,
    legalComments: "none",
    logLevel: "warning",
  });
  chmodSync(CLI_BUNDLE, 0o755);
  return CLI_BUNDLE;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildCli();
