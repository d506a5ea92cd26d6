// The built client (dist/) against a real memforest serve started for this file.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { dirname, resolve } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  AuthenticationError,
  MemForestAdmin,
  MemForestClient,
  NotFoundError,
  PermissionDeniedError,
  InputError,
  RateLimitedError,
  ServerError,
  TransportError,
} from "../dist/index.js";
import { ADMIN_KEY, startServer, tenantKey } from "./server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
let server;
let admin;

before(async () => {
  server = await startServer();
  admin = new MemForestAdmin({ baseUrl: server.url, adminKey: ADMIN_KEY });
});

after(async () => {
  await server?.stop();
});

const MESSAGES = [
  { role: "user", name: "Tove", content: "I joined a choir in Bergen last autumn." },
  { role: "assistant", content: "Lovely. Which voice do you sing?" },
  { role: "user", name: "Tove", content: "Alto, and my choir director is called Henrik." },
];

test("an agent's round trip: messages with wait, query, correct, history, delete", async () => {
  const mf = new MemForestClient({ baseUrl: server.url, apiKey: await tenantKey(admin, "choir") });
  await mf.createForest("notes");
  const job = await mf.addMessages("notes", MESSAGES, { wait: 30, sessionId: "s1" });
  assert.equal(job.state, "succeeded");
  const answer = await mf.query("notes", "Which choir did Tove join?", { topK: 5 });
  assert.ok(answer.evidence.some((item) => item.text.toLowerCase().includes("choir")));
  const facts = [];
  for await (const fact of mf.iterFacts("notes", { limit: 1 })) facts.push(fact);
  assert.ok(facts.length >= 2, "paging stopped early");
  const director = facts.find((fact) => fact.text.includes("Henrik"));
  assert.ok(director, "a fact names the director");
  const corrected = await mf.correctFact("notes", director.id, "Tove's choir director is called Magnus.");
  assert.equal(corrected.kind, "correction");
  assert.ok((await mf.getFact("notes", director.id)).superseded_by);
  const history = await mf.factHistory("notes", director.id);
  assert.ok(JSON.stringify(history).includes("supersed") || JSON.stringify(history).includes("correct"));
  await mf.deleteFact("notes", corrected.id);
  await assert.rejects(mf.deleteFact("notes", corrected.id), NotFoundError);
  const sessions = await mf.listSessions("notes");
  assert.deepEqual(sessions.items.map((s) => s.session_id), ["s1"]);
  assert.equal((await mf.getSession("notes", "s1")).turns.length, 3);
});

test("sessions, jobs, export and import, trees, retract", async () => {
  const mf = new MemForestClient({ baseUrl: server.url, apiKey: await tenantKey(admin, "porter", ["read", "write", "admin"]) });
  const session = {
    id: "trip",
    time: "2024-03-02T09:00:00Z",
    turns: [{ speaker: "Ilse", text: "I bought a red kayak in Utrecht." }],
  };
  const job = await mf.addSession("river", session, { wait: 60 });
  assert.equal(job.state, "succeeded");
  assert.equal((await mf.getJob(job.job_id)).state, "succeeded");
  const records = await mf.exportForest("river");
  assert.ok(records.length >= 1);
  const imported = await mf.importForest("river-copy", records);
  assert.equal((await mf.waitJob(imported.job_id, { timeoutMs: 60_000 })).state, "succeeded");
  assert.ok((await mf.listForests()).items.some((forest) => forest.name === "river-copy"));
  assert.ok((await mf.listTrees("river")).items.length >= 1);
  const report = await mf.retractSession("river", "trip");
  assert.equal(report.sessions, 1);
  await assert.rejects(mf.retractSession("river", "trip"), NotFoundError);
  await mf.deleteForest("river-copy");
});

test("queryForests ranks evidence from several forests, each naming its forest", async () => {
  const mf = new MemForestClient({ baseUrl: server.url, apiKey: await tenantKey(admin, "multi") });
  await mf.addMessages("home", [{ role: "user", name: "Rui", content: "I live in Coimbra now." }], { wait: 30 });
  await mf.addMessages("work", [{ role: "user", name: "Rui", content: "I work at a bakery in Coimbra." }], { wait: 30 });
  const answer = await mf.queryForests(["home", "work"], "Coimbra", { topK: 10 });
  assert.deepEqual(new Set(answer.evidence.map((item) => item.forest)), new Set(["home", "work"]));
});

test("webhooks: create, list, deliveries, delete", async () => {
  const mf = new MemForestClient({ baseUrl: server.url, apiKey: await tenantKey(admin, "hooks", ["read", "write", "admin"]) });
  const hook = await mf.createWebhook("http://127.0.0.1:9999/hook", ["job.succeeded"]);
  assert.ok(hook.secret);
  assert.deepEqual((await mf.listWebhooks()).items.map((w) => w.id), [hook.id]);
  assert.deepEqual((await mf.webhookDeliveries(hook.id)).items, []);
  await mf.deleteWebhook(hook.id);
  assert.deepEqual((await mf.listWebhooks()).items, []);
});

test("errors are one hierarchy carrying the problem fields", async () => {
  const stranger = new MemForestClient({ baseUrl: server.url, apiKey: "mf_" + "x".repeat(40) });
  await assert.rejects(stranger.listForests(), AuthenticationError);
  const reader = new MemForestClient({ baseUrl: server.url, apiKey: await tenantKey(admin, "reader", ["read"]) });
  await assert.rejects(reader.createForest("nope"), PermissionDeniedError);
  const error = await reader.getForest("nowhere").catch((e) => e);
  assert.ok(error instanceof NotFoundError);
  assert.equal(error.status, 404);
  assert.match(error.type, /problems\/not-found$/);
  assert.ok(error.detail.includes("nowhere"));
  const bad = await reader.query("nowhere", "q", { topK: 0 }).catch((e) => e);
  assert.ok(bad instanceof InputError, String(bad));
  const offline = new MemForestClient({ baseUrl: "http://127.0.0.1:9", apiKey: "k", retry: false });
  await assert.rejects(offline.listForests(), TransportError);
});

test("admin: tenants and keys", async () => {
  const tenant = await admin.createTenant("keyed");
  const key = await admin.createKey(tenant.id, ["read"]);
  assert.ok(key.key);
  assert.ok((await admin.listKeys(tenant.id)).items.some((k) => k.id === key.id));
  await admin.revokeKey(tenant.id, key.id);
  const revoked = new MemForestClient({ baseUrl: server.url, apiKey: key.key });
  await assert.rejects(revoked.listForests(), AuthenticationError);
  await admin.deleteTenant(tenant.id);
  assert.ok(!(await admin.listTenants()).items.some((t) => t.id === tenant.id));
});

test("429 and 503 are retried honouring Retry-After; the off switch and long waits throw", async () => {
  const refusals = [];
  const arrivals = [];
  const refusing = createServer((request, response) => {
    arrivals.push(Date.now());
    const next = refusals.shift();
    if (next) {
      response.writeHead(next.status, { "Content-Type": "application/problem+json", ...(next.retryAfter ? { "Retry-After": next.retryAfter } : {}) });
      response.end(JSON.stringify({ type: "https://memforest.dev/problems/busy", title: "Busy", status: next.status, detail: "later" }));
      return;
    }
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end(JSON.stringify({ status: "ok" }));
  });
  await new Promise((done) => refusing.listen(0, "127.0.0.1", done));
  const baseUrl = `http://127.0.0.1:${refusing.address().port}`;
  try {
    refusals.push({ status: 429, retryAfter: "1" }, { status: 503 });
    const mf = new MemForestClient({ baseUrl, retry: { backoffMs: 10 } });
    assert.deepEqual(await mf.health(), { status: "ok" });
    assert.equal(arrivals.length, 3);
    assert.ok(arrivals[1] - arrivals[0] >= 900, "Retry-After: 1 was not honoured");

    arrivals.length = 0;
    refusals.push({ status: 503 });
    const off = new MemForestClient({ baseUrl, retry: false });
    await assert.rejects(off.health(), ServerError);
    assert.equal(arrivals.length, 1);

    arrivals.length = 0;
    refusals.push({ status: 429, retryAfter: "3600" });
    const error = await mf.health().catch((e) => e);
    assert.ok(error instanceof RateLimitedError);
    assert.equal(error.retryAfter, 3600);
    assert.equal(arrivals.length, 1);
  } finally {
    refusing.close();
  }
});

test("the quickstart script runs on dist/ alone", async () => {
  const apiKey = await tenantKey(admin, "quickstart");
  const { stdout } = await promisify(execFile)(process.execPath, [resolve(here, "..", "examples", "quickstart.mjs")], {
    env: { ...process.env, MEMFOREST_URL: server.url, MEMFOREST_API_KEY: apiKey },
  });
  assert.match(stdout, /ingest: succeeded/);
  assert.match(stdout, /corrected: fact \S+ says Amara moved to Mombasa/);
  assert.match(stdout, /deleted: fact \S+ is gone/);
});
