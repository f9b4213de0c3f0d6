import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { bundleWebServer } from "../lib/bundle.ts";

/**
 * The web server's bundle (tidemark-server.mjs, what every launcher runs) takes Prisma's packages
 * from node_modules, one instance each: forgetPrismaHistory (packages/db/src/prisma.ts) clears
 * @prisma/debug's history, and only the instance the pg adapter logs to holds the bulk
 * statements. With a copy of its own inside the bundle, a 10 000-host import left the web
 * process 28–40 % larger a minute later (bench/scenarios/web-import-memory.ts).
 */
const scratch = mkdtempSync(path.join(os.tmpdir(), "tidemark-web-bundle-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it("bundles no Prisma package: the client, its adapter and its debug history are node_modules' own", async () => {
  const text = readFileSync(await bundleWebServer(path.join(scratch, "server.mjs")), "utf8");
  // esbuild marks every module it inlines with a comment naming its path.
  const inlined = [...new Set(text.match(/^\/\/ node_modules\/@prisma\/[^/\s]+/gm) ?? [])];
  expect(inlined).toEqual([]);
  expect(text).toMatch(/from "@prisma\/debug"/);
});
