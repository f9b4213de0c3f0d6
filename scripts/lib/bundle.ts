import path from "node:path";
import type { Plugin } from "esbuild";
import { REPO_ROOT } from "./paths.ts";

/**
 * Prisma's generated client, its runtime, its debug history and its pg adapter, left out of a bundle whose process talks plain SQL
 * only (the worker): the client with its query compiler is two thirds of the worker's bundle and
 * about 15 MB of its RSS, though `Database.prisma` never creates it there. What stands in for it
 * throws if something in that process does reach for Prisma after all.
 */
const withoutPrisma: Plugin = {
  name: "without-prisma",
  setup(build) {
    // One stand-in for all of them (its path, not theirs, is what the bundle names).
    build.onResolve({ filter: /(^|\/)generated\/prisma\/client(\.ts)?$|^@prisma\/(adapter-pg|client\/runtime\/client|debug)$/ }, () => ({
      path: "stand-in",
      namespace: "without-prisma",
    }));
    build.onLoad({ filter: /.*/, namespace: "without-prisma" }, () => ({
      loader: "js",
      contents: `const absent = () => { throw new Error("Prisma is not part of this bundle (scripts/lib/bundle.ts): use the pool"); };
export class PrismaClient { constructor() { absent(); } }
export class PrismaPg { constructor() { absent(); } }
export const Debug = () => absent;
export const clearLogs = absent;`,
    }));
  },
};

/**
 * One JavaScript file of a Node entry point and everything it imports, built with esbuild (tsx's
 * own compiler). Run with plain node it spares the process tsx's loader (its compiler, a loader
 * thread and the TypeScript sources it keeps): about 35 MB of RSS for the worker, and no
 * compiling at every start. `prisma: false` leaves Prisma's client out (see withoutPrisma).
 */
export async function bundleEntry(
  entry: string,
  outfile: string,
  options: { prisma?: boolean; external?: string[] } = {},
): Promise<string> {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: path.resolve(outfile),
    external: ["pg-native", ...(options.external ?? [])],
    plugins: options.prisma === false ? [withoutPrisma] : [],
    // Some bundled CommonJS dependencies call require().
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: "warning",
  });
  return path.resolve(outfile);
}

const WORKER_ENTRY = path.join(REPO_ROOT, "apps", "worker", "src", "main.ts");

/**
 * The worker as every launcher runs it (`npm start`, the Docker image, the benchmarks): one file
 * without Prisma, run by plain node with WORKER_NODE_OPTIONS.
 */
export function bundleWorker(outfile: string): Promise<string> {
  return bundleEntry(WORKER_ENTRY, outfile, { prisma: false });
}

const WEB_ENTRY = path.join(REPO_ROOT, "apps", "web", "src", "main.ts");

/**
 * The web server (apps/web/src/main.ts) as one file beside the Next.js build it serves: loaded by
 * plain node, it listens in a third of the time tsx's loader took (0.8–1.0 s against 2.4–2.7 s on
 * a quiet machine; the loader compiled the API's TypeScript at every start). Next.js, React and the
 * packages next.config.ts keeps out of Next.js's server bundles stay in node_modules, resolved from
 * the web app's folder.
 */
export async function bundleWebServer(outfile: string): Promise<string> {
  // Read at run time by path: a static import would bring Next.js's global types into the scripts.
  const nextConfig = (await import(path.join(REPO_ROOT, "apps", "web", "next.config.ts"))) as {
    default: { serverExternalPackages?: string[] };
  };
  const packages = ["next", "react", "react-dom", ...(nextConfig.default.serverExternalPackages ?? [])];
  return bundleEntry(WEB_ENTRY, outfile, { external: packages.flatMap((name) => [name, `${name}/*`]) });
}
