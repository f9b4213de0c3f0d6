import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * The machine's own PostgreSQL (Debian's cluster) for the plain-PostgreSQL test run: started
 * when installed but stopped, with a fresh database for the run. Returns null when no server is
 * installed at all.
 */
function psqlAsPostgres(port: number, sql: string): void {
  const root = process.getuid?.() === 0;
  execFileSync(
    root ? "runuser" : "sudo",
    [
      ...(root ? ["-u", "postgres", "--"] : ["-n", "-u", "postgres"]),
      "psql",
      "-p",
      String(port),
      "-X",
      "-q",
      "-v",
      "ON_ERROR_STOP=1",
      "-c",
      sql,
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
}

let clusterPort = 5432;

export function dropPlainPostgres(database: string): void {
  psqlAsPostgres(clusterPort, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
}

export function preparePlainPostgres(database: string, log: (m: string) => void): string | null {
  if (!existsSync("/usr/bin/pg_lsclusters")) return null;
  const clusters = execFileSync("pg_lsclusters", ["--no-header"], { encoding: "utf8" })
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [version, name, port, status] = line.trim().split(/\s+/);
      return { version: version!, name: name!, port: Number(port), status: status! };
    });
  const cluster = clusters.sort((a, b) => Number(b.version) - Number(a.version))[0];
  if (!cluster) return null;
  clusterPort = cluster.port;
  if (cluster.status !== "online") {
    log(`starting the local PostgreSQL ${cluster.version} cluster "${cluster.name}"`);
    execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", cluster.version, cluster.name, "start"], { stdio: "inherit" });
  }
  const asPostgres = (sql: string) => psqlAsPostgres(cluster.port, sql);
  asPostgres(
    `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'tidemark_test') THEN CREATE ROLE tidemark_test LOGIN PASSWORD 'tidemark_test'; END IF; END $$`,
  );
  asPostgres(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  asPostgres(`CREATE DATABASE ${database} OWNER tidemark_test`);
  return `postgres://tidemark_test:tidemark_test@127.0.0.1:${cluster.port}/${database}`;
}
