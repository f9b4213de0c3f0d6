import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { bundleWebServer, bundleWorker } from "./bundle.ts";
import { bin, REPO_ROOT } from "./paths.ts";
import { run } from "./processes.ts";

function* walk(dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  if (statSync(dir).isFile()) {
    yield dir;
    return;
  }
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

/** A fingerprint of everything a build reads, so an unchanged checkout starts without rebuilding. */
function fingerprint(roots: string[]): string {
  const hash = createHash("sha256");
  for (const root of roots) {
    for (const file of [...walk(root)].sort()) {
      const s = statSync(file);
      hash.update(`${path.relative(REPO_ROOT, file)}:${s.size}:${s.mtimeMs}\n`);
    }
  }
  return hash.digest("hex");
}

/** `prisma generate` needs no engine binary; the schema engine it would look for is unused. */
export async function ensurePrismaClient(log: (m: string) => void): Promise<void> {
  const schema = path.join(REPO_ROOT, "prisma", "schema.prisma");
  const client = path.join(REPO_ROOT, "packages", "db", "src", "generated", "prisma", "client.ts");
  if (existsSync(client) && statSync(client).mtimeMs >= statSync(schema).mtimeMs) return;
  log("generating the Prisma client");
  await run(bin("prisma"), ["generate"], {
    cwd: REPO_ROOT,
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
}

/** What every bundle is built from besides its app's sources: the packages, the locked dependencies and the bundler's settings. */
const SHARED_SOURCES = [
  path.join(REPO_ROOT, "packages"),
  path.join(REPO_ROOT, "package-lock.json"),
  path.join(REPO_ROOT, "scripts", "lib", "bundle.ts"),
];

/**
 * Runs `build` unless `stampFile` holds the fingerprint of `sources` and every one of `outputs`
 * exists; then stamps it.
 */
async function buildWhenChanged(stampFile: string, sources: string[], outputs: string[], build: () => Promise<unknown>): Promise<void> {
  const stamp = fingerprint(sources);
  if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp && outputs.every((o) => existsSync(o))) return;
  await build();
  writeFileSync(stampFile, stamp);
}

/**
 * The worker's bundle at `outfile` (bundleWorker), built again only when what it is built from
 * changed: a start on an unchanged checkout spends no CPU on esbuild beside the database's start.
 */
export async function ensureWorkerBundle(outfile: string): Promise<string> {
  await buildWhenChanged(`${outfile}.stamp`, [path.join(REPO_ROOT, "apps", "worker", "src"), ...SHARED_SOURCES], [outfile], () =>
    bundleWorker(outfile),
  );
  return outfile;
}

/** The web build's folder (Next.js's distDir; TIDEMARK_NEXT_DIST lets checkouts build side by side). */
function webDistDir(): string {
  return path.join(REPO_ROOT, "apps", "web", process.env.TIDEMARK_NEXT_DIST ?? ".next");
}

/** The file name of the web server's bundle: what finds its process among others (benchmarks). */
export const WEB_SERVER_BUNDLE_NAME = "tidemark-server.mjs";

/** The web server's one-file bundle, built with the Next.js build it serves (bundleWebServer). */
export function webServerBundle(): string {
  return path.join(webDistDir(), WEB_SERVER_BUNDLE_NAME);
}

/** The production `next build` and the web server's bundle, unless both are current. */
export async function ensureWebBuild(log: (m: string) => void): Promise<void> {
  const web = path.join(REPO_ROOT, "apps", "web");
  const sources = [path.join(web, "src"), path.join(web, "next.config.ts"), ...SHARED_SOURCES];
  await buildWhenChanged(path.join(webDistDir(), "tidemark-build-stamp"), sources, [webServerBundle()], async () => {
    log("building the web app (first start, or the sources changed)");
    await run(bin("next"), ["build"], { cwd: web, env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    await bundleWebServer(webServerBundle());
  });
}
