/**
 * The Tidemark collector agent. `TIDEMARK_URL=https://tidemark.example TIDEMARK_AGENT_TOKEN=tm_agent_…
 * tsx apps/agent/src/main.ts`; see settings.ts for the optional settings.
 */
import "./v8-flags.ts";
import pino from "pino";
import { Agent } from "./agent.ts";
import { readSettings } from "./settings.ts";

const log = pino({ name: "agent", level: process.env.LOG_LEVEL ?? "info" });

async function main() {
  const settings = readSettings(process.env);
  const agent = new Agent({ ...settings, log });
  await agent.start();
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    log.info("stopping: spooling what could not be sent");
    await agent.stop();
    const { results, spool } = agent.health();
    log.info({ results, spool }, "stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
}

main().catch((error: unknown) => {
  log.fatal(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
