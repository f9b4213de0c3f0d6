/**
 * `npm run bench [-- name… ] [--db embedded,plain,url]`: runs the named scenarios (all by default)
 * and writes one JSON file per scenario and database kind under bench/results/.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "@tidemark/db/client";
import { prepareDatabase } from "../scripts/lib/database.ts";
import { dropPlainPostgres, preparePlainPostgres } from "../scripts/lib/postgres-local.ts";
import type { BenchScenario } from "./scenario.ts";

type DbKind = "embedded" | "plain" | "url";
const here = path.dirname(fileURLToPath(import.meta.url));
const resultsDir = path.join(here, "results");
const args = process.argv.slice(2);
const dbFlag = args.indexOf("--db");
const kinds: DbKind[] =
  dbFlag >= 0 ? (args[dbFlag + 1]!.split(",") as DbKind[]) : ["embedded", "plain", ...(process.env.DATABASE_URL ? (["url"] as const) : [])];
const names = args.filter((a, i) => !a.startsWith("--") && (dbFlag < 0 || i !== dbFlag + 1));
const log = (m: string) => process.stdout.write(`[bench] ${m}\n`);

async function loadScenarios(): Promise<BenchScenario[]> {
  const files = readdirSync(path.join(here, "scenarios"))
    .filter((f) => f.endsWith(".ts"))
    .sort();
  const all = await Promise.all(
    files.map(async (f) => ((await import(path.join(here, "scenarios", f))) as { scenario: BenchScenario }).scenario),
  );
  return all.filter((s) => names.length === 0 || names.includes(s.name));
}

async function withDatabase<T>(kind: DbKind, f: (db: Database) => Promise<T>): Promise<T> {
  const saved = process.env.DATABASE_URL;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tidemark-bench-"));
  const plainName = `tidemark_bench_${process.pid}`;
  try {
    if (kind === "embedded") delete process.env.DATABASE_URL;
    if (kind === "plain") {
      const url = preparePlainPostgres(plainName, log);
      if (!url) throw new Error("no local PostgreSQL server: install one or pass --db embedded");
      process.env.DATABASE_URL = url;
    }
    const prepared = await prepareDatabase({ dataDir, log });
    try {
      return await f(prepared.db);
    } finally {
      await prepared.db.close();
      await prepared.embedded?.stop();
    }
  } finally {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
    if (kind === "plain") dropPlainPostgres(plainName);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** CPU of this process (the embedded database runs in it too) and its peak RSS while `f` runs. */
async function measured(f: () => Promise<Record<string, unknown>>) {
  const rssStart = process.memoryUsage.rss();
  let rssPeak = rssStart;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  }, 100);
  const cpuStart = process.cpuUsage();
  const t0 = performance.now();
  try {
    const figures = await f();
    const durationMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpuStart);
    const mb = (b: number) => Math.round((b / 1048576) * 10) / 10;
    return {
      durationMs: Math.round(durationMs),
      process: {
        cpuPercentOfOneCore: Math.round(((cpu.user + cpu.system) / 1000 / durationMs) * 1000) / 10,
        rssStartMb: mb(rssStart),
        rssPeakMb: mb(Math.max(rssPeak, process.memoryUsage.rss())),
        rssEndMb: mb(process.memoryUsage.rss()),
      },
      figures,
    };
  } finally {
    clearInterval(sampler);
  }
}

async function main() {
  mkdirSync(resultsDir, { recursive: true });
  const scenarios = await loadScenarios();
  if (scenarios.length === 0) throw new Error(`no scenario named ${names.join(", ")}`);
  for (const scenario of scenarios) {
    for (const kind of scenario.needsDatabase ? kinds : (["none"] as const)) {
      log(`${scenario.name} · ${kind}`);
      const result =
        kind === "none"
          ? await measured(() => scenario.run({ db: null, log }))
          : await withDatabase(kind, (db) => measured(() => scenario.run({ db, log })).then((r) => ({ ...r, database: db.info })));
      const file = path.join(resultsDir, `${scenario.name}-${kind}.json`);
      const record = {
        scenario: scenario.name,
        databaseKind: kind,
        at: new Date().toISOString(),
        machine: { cpus: os.cpus().length, node: process.version },
        ...result,
      };
      writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
      log(`${scenario.name} · ${kind}: ${JSON.stringify(result.figures)}`);
      log(`wrote ${path.relative(process.cwd(), file)}`);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`[bench] ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
