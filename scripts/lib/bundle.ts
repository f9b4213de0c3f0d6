import path from "node:path";

/**
 * One JavaScript file of a Node entry point and everything it imports, built with esbuild (tsx's
 * own compiler). Run with plain node it spares the process tsx's loader (its compiler, a loader
 * thread and the TypeScript sources it keeps): about 35 MB of RSS for the worker, and no
 * compiling at every start.
 */
export async function bundleEntry(entry: string, outfile: string): Promise<string> {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: path.resolve(outfile),
    external: ["pg-native"],
    // Some bundled CommonJS dependencies call require().
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: "warning",
  });
  return path.resolve(outfile);
}
