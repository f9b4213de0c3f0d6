import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { WORKER_NODE_OPTIONS } from "../../apps/worker/src/node-options.ts";
import { bundleWorker } from "../lib/bundle.ts";
import { REPO_ROOT } from "../lib/paths.ts";

/**
 * The worker's bundle as every launcher runs it (issue 22): without Prisma's client and query
 * compiler, and whole — every module of it evaluates under plain node, up to the worker's first
 * word with the database (an address where nothing listens here, so that this test's worker
 * evaluates no other test's work).
 */
const scratch = mkdtempSync(path.join(os.tmpdir(), "tidemark-worker-bundle-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it("leaves Prisma out and runs under plain node up to connecting to the database", async () => {
  const bundle = await bundleWorker(path.join(scratch, "worker.mjs"));
  const text = readFileSync(bundle, "utf8");
  expect(text).toContain("Prisma is not part of this bundle");
  expect(text).not.toContain("@prisma/client/runtime");
  const run = spawnSync(process.execPath, [...WORKER_NODE_OPTIONS, bundle], {
    cwd: path.join(REPO_ROOT, "apps", "worker"),
    env: { ...process.env, DATABASE_URL: "postgres://tidemark:x@127.0.0.1:1/tidemark" },
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain("nothing is listening at postgres://tidemark:***@127.0.0.1:1/tidemark");
});
