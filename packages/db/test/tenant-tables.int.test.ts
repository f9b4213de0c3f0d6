import type { Database } from "@tidemark/db/client";
import { ensureSeries } from "@tidemark/db/metrics";
import { createTestOrg, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { poolOf } from "../src/database.ts";

// Issue 22, "past one machine": every tenant table carries its organisation, so that the schema
// can be distributed by organization_id (Citus) with each child co-located with its parent.

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

/** Tables that belong to no one organisation: people, their sign-in, and the migrations' record. */
const GLOBAL_TABLES = ["_prisma_migrations", "known_devices", "organizations", "rate_limit_buckets", "sessions", "users"];

/**
 * Keys between tenant tables that still leave the organisation out, and why: metric_points' key
 * to its series, whose compressed chunks a new key would rewrite (docs/scaling.md, "Not done yet").
 */
const SINGLE_COLUMN_KEYS = ["metric_points (series_id) → series"];

describe("tenant tables", () => {
  it("every table but the global ones carries a non-null organization_id", async () => {
    const { rows } = await poolOf(db).query<{ table_name: string; is_nullable: string | null }>(
      `SELECT t.table_name, c.is_nullable FROM information_schema.tables t
       LEFT JOIN information_schema.columns c
         ON c.table_schema = t.table_schema AND c.table_name = t.table_name AND c.column_name = 'organization_id'
       WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE'`,
    );
    const tenantTables = rows.filter((r) => !GLOBAL_TABLES.includes(r.table_name));
    expect(tenantTables.length).toBeGreaterThan(25);
    expect(tenantTables.filter((r) => r.is_nullable !== "NO").map((r) => r.table_name)).toEqual([]);
  });

  it("keys between tenant tables include the organisation, but the listed ones", async () => {
    const { rows } = await poolOf(db).query<{ key: string }>(
      `SELECT format('%s (%s) → %s', c.conrelid::regclass, string_agg(a.attname, ', ' ORDER BY k.n), c.confrelid::regclass) AS key
       FROM pg_constraint c
       CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
       WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
         AND c.confrelid::regclass::text <> ALL($1::text[]) AND c.conrelid::regclass::text <> ALL($1::text[])
       GROUP BY c.oid, c.conrelid, c.confrelid
       HAVING NOT bool_or(a.attname = 'organization_id')`,
      [GLOBAL_TABLES],
    );
    expect(rows.map((r) => r.key).sort()).toEqual(SINGLE_COLUMN_KEYS);
  });

  it("refuses a child row whose organisation is not its parent's, and accepts it under the parent's", async () => {
    const [a, b] = await Promise.all([createTestOrg(db), createTestOrg(db)]);
    const seriesOfA = (await ensureSeries(db, a.organization.id, ["h-s-i"])).get("h-s-i")!;
    const insertState = (organizationId: string) =>
      poolOf(db).query(
        `INSERT INTO item_states (organization_id, series_id, ts, state, hard_state, soft_count) VALUES ($1, $2, now(), 'OK', 'OK', 0)`,
        [organizationId, seriesOfA],
      );
    await expect(insertState(b.organization.id)).rejects.toMatchObject({
      code: "23503",
      constraint: "item_states_organization_id_series_id_fkey",
    });
    await insertState(a.organization.id);
    const { rows } = await poolOf(db).query(`SELECT organization_id FROM item_states WHERE series_id = $1`, [seriesOfA]);
    expect(rows).toEqual([{ organization_id: a.organization.id }]);
  });
  it("lets a service run only on its organisation's agent, and keeps its organisation when the agent goes", async () => {
    const [a, b] = await Promise.all([createTestOrg(db), createTestOrg(db)]);
    const one = async <T>(sql: string, values: unknown[]) => (await poolOf(db).query(sql, values)).rows[0] as T;
    const agentOf = async (organizationId: string) =>
      one<{ id: string }>(
        `INSERT INTO agents (organization_id, name, token_prefix, token_hash) VALUES ($1, 'a', 'p', gen_random_uuid()::text) RETURNING id`,
        [organizationId],
      );
    const [agentOfA, agentOfB] = [await agentOf(a.organization.id), await agentOf(b.organization.id)];
    const host = await one<{ id: string }>(`INSERT INTO hosts (organization_id, name) VALUES ($1, 'h') RETURNING id`, [a.organization.id]);
    const service = await one<{ id: string }>(
      `INSERT INTO services (organization_id, host_id, name, schedules, url, agent_id) VALUES ($1, $2, 's', '{10S}', 'shell://x', $3) RETURNING id`,
      [a.organization.id, host.id, agentOfA.id],
    );
    await expect(poolOf(db).query(`UPDATE services SET agent_id = $2 WHERE id = $1`, [service.id, agentOfB.id])).rejects.toMatchObject({
      code: "23503",
      constraint: "services_organization_id_agent_id_fkey",
    });
    await poolOf(db).query(`DELETE FROM agents WHERE id = $1`, [agentOfA.id]);
    expect(await one(`SELECT organization_id, agent_id FROM services WHERE id = $1`, [service.id])).toEqual({
      organization_id: a.organization.id,
      agent_id: null,
    });
  });
});
