// src/schema.ts is what scripts/generate.mjs renders from the running server's /openapi.json.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { render, schemaPath } from "../scripts/generate.mjs";
import { startServer } from "./server.mjs";

let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

test("the committed types match the server's OpenAPI document", async () => {
  const spec = await (await fetch(`${server.url}/openapi.json`)).json();
  const committed = await readFile(schemaPath, "utf8");
  assert.ok(committed === (await render(spec)), "src/schema.ts drifted from the server: run `npm run generate`");
});
