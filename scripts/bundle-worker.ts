/**
 * `tsx scripts/bundle-worker.ts <outfile>`: the worker's one JavaScript file, as `npm start`
 * builds it (scripts/lib/bundle.ts). The Docker image's worker stage runs this once at build time
 * and then the bundle with plain node, as `npm start` does.
 */
import { bundleWorker } from "./lib/bundle.ts";

const outfile = process.argv[2];
if (!outfile) {
  process.stderr.write("usage: tsx scripts/bundle-worker.ts <outfile>\n");
  process.exit(2);
}
process.stdout.write(`${await bundleWorker(outfile)}\n`);
