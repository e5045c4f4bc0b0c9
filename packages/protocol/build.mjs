// Builds @idea-kit/protocol from the repository: tsc compiles generated/ and runtime/ (tsconfig.build.json),
// the ajv standalone validators (already ESM JavaScript) are copied beside their .d.ts, the JSON
// Schemas of every spec version go to schemas/<v>/ and each version's protocol.md to docs/<v>/.
// Run: npm run build -w @idea-kit/protocol (or npm run build:packages from the root).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const require = createRequire(import.meta.url);

for (const out of ["dist", "schemas", "docs"]) rmSync(join(here, out), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(here, "tsconfig.build.json")], { stdio: "inherit" });

const versions = readdirSync(join(root, "generated")).filter((n) => /^v\d+\.\d+\.\d+$/.test(n));
for (const v of versions) {
  for (const f of ["validators.js", "validators.d.ts"]) cpSync(join(root, "generated", v, f), join(here, "dist", "generated", v, f));
  cpSync(join(root, "generated", v, "protocol.md"), join(here, "docs", v, "protocol.md"));
  cpSync(join(root, "spec", v), join(here, "schemas", v), { recursive: true, filter: (src) => !src.endsWith(".md") });
}
for (const f of ["index.schema.json", "releases.json"]) if (existsSync(join(root, "spec", f))) cpSync(join(root, "spec", f), join(here, "schemas", f));
mkdirSync(join(here, "dist"), { recursive: true });
console.log(`@idea-kit/protocol: ${versions.join(", ")} → dist/, schemas/, docs/`);
