/**
 * npx tsx packages/embedded-pg/src/cli.ts --data-dir .data/db [--port N] [--host H] [--verbose]
 * Prints `DATABASE_URL=<url>` on stdout when ready; SIGINT/SIGTERM stop it cleanly (exit 0).
 */
import { parseArgs } from "node:util";
import { EmbeddedPgError, type EmbeddedPostgres, startEmbeddedPostgres } from "./index.ts";

function fail(message: string): never {
  process.stderr.write(`embedded-pg: ${message}\n`);
  process.exit(1);
}

let args: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      "data-dir": { type: "string" },
      port: { type: "string" },
      host: { type: "string" },
      verbose: { type: "boolean", default: false },
    },
  }).values;
}
try {
  args = parse();
} catch (e) {
  fail(`${(e as Error).message}; usage: cli.ts --data-dir DIR [--port N] [--host H] [--verbose]`);
}
const dataDir = args["data-dir"];
if (!dataDir) fail("--data-dir is required; usage: cli.ts --data-dir DIR [--port N] [--host H]");
const port = args.port === undefined ? undefined : Number(args.port);
if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
  fail(`--port must be an integer between 0 and 65535, not ${args.port}`);
}
const log = args.verbose ? (msg: string) => process.stderr.write(`embedded-pg: ${msg}\n`) : undefined;

// pglite-socket fires some promises without awaiting them (e.g. ROLLBACK of a disconnecting
// client): report them instead of crashing the server.
process.on("unhandledRejection", (e) => {
  process.stderr.write(`embedded-pg: ignored error: ${e instanceof Error ? e.message : String(e)}\n`);
});

let server: EmbeddedPostgres | undefined;
let stopRequested = false;
let exiting = false;

async function shutdown(signal: string): Promise<void> {
  if (stopRequested) return;
  stopRequested = true;
  log?.(`${signal}: stopping`);
  if (!server) return; // still starting: stopped as soon as the start finishes
  await exit(0);
}

async function exit(code: number): Promise<never> {
  if (!exiting) {
    exiting = true;
    try {
      await server?.stop();
    } catch (e) {
      process.stderr.write(`embedded-pg: stopping failed: ${(e as Error).message}\n`);
      code = 1;
    }
  }
  process.exit(code);
}

process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

try {
  server = await startEmbeddedPostgres({ dataDir, port, host: args.host, log });
} catch (e) {
  if (e instanceof EmbeddedPgError) fail(e.message);
  fail(`could not start: ${(e as Error).message}`);
}
if (stopRequested) await exit(0);
process.stdout.write(`DATABASE_URL=${server.url}\n`);
