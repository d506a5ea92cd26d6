// Generates src/schema.ts, the request and response types, from the server's OpenAPI document.
//
//   npm run generate                 # the document of this checkout (python scripts/openapi_spec.py)
//   node scripts/generate.mjs FILE   # a saved document (e.g. a running server's /openapi.json)
//
// test/schema.test.mjs renders the running server's document the same way and fails when the
// committed file differs.
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, "..", "..", "..");
export const schemaPath = resolve(here, "..", "src", "schema.ts");

const HEADER =
  "// Generated from the MemForest server's OpenAPI document by scripts/generate.mjs: do not edit.\n" +
  "// Regenerate with `npm run generate`; test/schema.test.mjs fails when it drifts from the server.\n\n";

/** The TypeScript source of the types of an OpenAPI document (an object). */
export async function render(spec) {
  const ast = await openapiTS(spec, { alphabetize: true });
  return HEADER + astToString(ast);
}

/** The Python interpreter of the checkout (MEMFOREST_PYTHON, else the repository's .venv). */
export function python() {
  return process.env.MEMFOREST_PYTHON ?? resolve(repoRoot, ".venv", "bin", "python");
}

async function main() {
  const file = process.argv[2];
  const text = file
    ? await readFile(file, "utf8")
    : execFileSync(python(), [resolve(repoRoot, "scripts", "openapi_spec.py")], { encoding: "utf8" });
  await writeFile(schemaPath, await render(JSON.parse(text)));
  console.log(`wrote ${schemaPath}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
