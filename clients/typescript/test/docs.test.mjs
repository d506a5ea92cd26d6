// Every JavaScript snippet of docs/clients.md runs against a real server, importing the package
// by its name (the snippet is written inside the package, so "memforest" resolves to dist/).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { MemForestAdmin } from "../dist/index.js";
import { ADMIN_KEY, startServer, tenantKey } from "./server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const page = resolve(here, "..", "..", "..", "docs", "clients.md");
let server;
let admin;

before(async () => {
  server = await startServer();
  admin = new MemForestAdmin({ baseUrl: server.url, adminKey: ADMIN_KEY });
});

after(async () => {
  await server?.stop();
});

test("every js snippet of docs/clients.md runs", async () => {
  const snippets = [...(await readFile(page, "utf8")).matchAll(/^```js\n([\s\S]*?)^```/gm)].map((m) => m[1]);
  assert.ok(snippets.length >= 1, "docs/clients.md has no js snippet");
  for (const [n, code] of snippets.entries()) {
    const file = resolve(here, "..", `.docs-snippet-${n}.mjs`);
    await writeFile(file, code);
    try {
      const env = { ...process.env, MEMFOREST_URL: server.url, MEMFOREST_API_KEY: await tenantKey(admin, `docs-${n}`) };
      await promisify(execFile)(process.execPath, [file], { env });
    } finally {
      await rm(file, { force: true });
    }
  }
});
