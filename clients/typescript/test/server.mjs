// Starts a real `memforest serve` (embedded PostgreSQL, worker included) on a free 127.0.0.1 port
// for the tests, and stops it (SIGTERM: the server stops its database too).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { python } from "../scripts/generate.mjs";

export const ADMIN_KEY = "Adm1n-" + "Ts4Qe8Rk2Wz6Vm9Nb3Hx7Cj5";

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** A running server: { url, stop() }. */
export async function startServer() {
  const home = mkdtempSync(join(tmpdir(), "memforest-ts-"));
  const port = await freePort();
  const env = {
    ...process.env,
    MEMFOREST_HOME: home,
    MEMFOREST_ADMIN_KEY: ADMIN_KEY,
    MEMFOREST_WORKER__POLL_INTERVAL_S: "0.05",
    // webhook targets on 127.0.0.1 (the tests never name another address)
    MEMFOREST_WEBHOOKS__ALLOW_PRIVATE: "true",
  };
  delete env.MEMFOREST_DATABASE_URL;
  delete env.MEMFOREST_API_KEY;
  const child = spawn(python(), ["-m", "memforest.cli", "serve", "--port", String(port)], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (chunk) => (log += chunk));
  child.stderr.on("data", (chunk) => (log += chunk));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((done) => child.once("exit", done));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(home, { recursive: true, force: true });
  };
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`memforest serve exited: ${log.slice(-3000)}`);
    }
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`memforest serve did not become ready: ${log.slice(-3000)}`);
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  return { url, stop };
}

/** A new tenant and a key of it with `scopes`. */
export async function tenantKey(admin, name, scopes = ["read", "write"]) {
  const tenant = await admin.createTenant(name);
  const key = await admin.createKey(tenant.id, scopes);
  return key.key;
}
