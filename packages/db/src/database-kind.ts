import type pg from "pg";

export type DatabaseKind = "timescaledb" | "plain-postgresql";

export interface DatabaseInfo {
  kind: DatabaseKind;
  /** TimescaleDB's version, or null on plain PostgreSQL. */
  timescaleVersion: string | null;
  serverVersion: string;
  /** PGlite (PostgreSQL compiled to WebAssembly): serial, no COPY FROM STDIN, no background workers. */
  embedded: boolean;
}

/**
 * TimescaleDB when the extension is installed (or, with `install`, can be): everything else is
 * treated as plain PostgreSQL 15+, which Tidemark supports through fallbacks.
 */
export async function detectDatabaseKind(client: Pick<pg.ClientBase, "query">, opts: { install?: boolean } = {}): Promise<DatabaseKind> {
  if (opts.install) {
    const available = await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'timescaledb'`);
    if (available.rowCount) {
      try {
        await client.query("CREATE EXTENSION IF NOT EXISTS timescaledb");
      } catch (error) {
        // Installed in the server but not preloaded (shared_preload_libraries): run without it.
        if (!(error instanceof Error) || !/shared_preload_libraries|could not access file/.test(error.message)) throw error;
      }
    }
  }
  return (await databaseInfo(client)).kind;
}

export async function databaseInfo(client: Pick<pg.ClientBase, "query">): Promise<DatabaseInfo> {
  const { rows } = await client.query<{ extversion: string | null; server_version: string; embedded: boolean }>(
    `SELECT (SELECT extversion FROM pg_extension WHERE extname = 'timescaledb') AS extversion,
            current_setting('server_version') AS server_version,
            version() ~* 'emscripten|wasm' AS embedded`,
  );
  const row = rows[0];
  const timescaleVersion = row?.extversion ?? null;
  return {
    kind: timescaleVersion ? "timescaledb" : "plain-postgresql",
    timescaleVersion,
    serverVersion: row?.server_version ?? "unknown",
    embedded: row?.embedded ?? false,
  };
}
