import { randomUUID } from "node:crypto";
import type { Database } from "@tidemark/db/client";
import { configurationRevision, deployedConfigurationRevision, foldConfigurationChanges } from "@tidemark/db/evaluation";
import { createOrgWithItems, execute, queryRows, testDatabase, withConnection } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The revisions the worker polls to know when to read its configuration again
 * (OrganizationCache, the calculations' and freshness watch's reloads): an edit they miss leaves a
 * worker on the old configuration until something else changes, and a change they see where there
 * is none makes it read everything again for nothing.
 */

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

const revisions = (organizationId: string) => Promise.all([configurationRevision(db, organizationId), deployedConfigurationRevision(db)]);

async function itemIds(organizationId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(db, `SELECT id FROM service_items WHERE organization_id = $1 ORDER BY name`, [
    organizationId,
  ]);
  return rows.map((r) => r.id);
}

/** The organisation's changes not folded yet. */
async function changeRows(organizationId: string): Promise<number> {
  const rows = await queryRows<{ n: number }>(db, `SELECT count(*)::int AS n FROM configuration_changes WHERE organization_id = $1`, [
    organizationId,
  ]);
  return rows[0]!.n;
}

/** An item's draft edit as the editor makes it: its settings and its updated_at, in the caller's transaction. */
const editItem = (query: (sql: string, params?: unknown[]) => Promise<unknown[]>, id: string, staleAfter: number) =>
  query(`UPDATE service_items SET stale_after_intervals = $2, updated_at = now() WHERE id = $1`, [id, staleAfter]);

describe("configuration revisions", () => {
  it("stay the same while nothing is edited, and change with an item's edit, a new agent and an agent's revocation", async () => {
    const org = await createOrgWithItems(db, [{ name: "a" }, { name: "b" }]);
    const before = await revisions(org);
    // The organisation's own; the deployed one spans every organisation, which other test files edit meanwhile.
    expect(await configurationRevision(db, org)).toBe(before[0]);

    const [a] = await itemIds(org);
    await withConnection(db, (query) => editItem(query, a!, 7));
    const edited = await revisions(org);
    expect(edited[0]).not.toBe(before[0]);
    expect(edited[1]).not.toBe(before[1]);

    // An agent is an item of its organisation (its heartbeat); its revocation stops the freshness watch's.
    const [agent] = await queryRows<{ id: string }>(
      db,
      `INSERT INTO agents (organization_id, name, token_prefix, token_hash) VALUES ($1, 'agent-1', 'tmk_rev', $2) RETURNING id`,
      [org, randomUUID()],
    );
    const withAgent = await revisions(org);
    expect(withAgent[0]).not.toBe(edited[0]);
    await execute(db, `UPDATE agents SET revoked_at = now() WHERE id = $1`, [agent!.id]);
    expect(await deployedConfigurationRevision(db)).not.toBe(withAgent[1]);
  });

  it("change when an edit begun earlier commits after a later one was seen (its updated_at is older than the newest)", async (context) => {
    // The embedded server runs one backend: a second connection waits for the open transaction.
    if (db.info.embedded) context.skip();
    const org = await createOrgWithItems(db, [{ name: "a" }, { name: "b" }]);
    const [a, b] = await itemIds(org);
    let seen: string[] = [];
    let after: string[] = [];
    await withConnection(db, async (earlier) => {
      await earlier("BEGIN");
      await editItem(earlier, a!, 5);
      try {
        // A second editor begins after the first, commits first, and the worker looks then.
        await withConnection(db, (later) => editItem(later, b!, 6));
        seen = await revisions(org);
      } finally {
        await earlier("COMMIT");
      }
      after = await revisions(org);
    });
    const stamps = await queryRows<{ id: string; ms: number }>(
      db,
      `SELECT id, extract(epoch FROM updated_at)::float8 * 1000 AS ms FROM service_items WHERE id = ANY($1::uuid[])`,
      [[a, b]],
    );
    const ms = new Map(stamps.map((s) => [s.id, s.ms]));
    // The race the test is about: the edit committed last carries the older time.
    expect(ms.get(a!)!).toBeLessThanOrEqual(ms.get(b!)!);
    expect(after[0]).not.toBe(seen[0]);
    expect(after[1]).not.toBe(seen[1]);
  });

  it("leave an agent's calls and reports out, and count its renaming", async () => {
    const org = await createOrgWithItems(db, [{ name: "a" }]);
    const [agent] = await queryRows<{ id: string }>(
      db,
      `INSERT INTO agents (organization_id, name, token_prefix, token_hash) VALUES ($1, 'agent-1', 'tmk_cal', $2) RETURNING id`,
      [org, randomUUID()],
    );
    const before = await configurationRevision(db, org);
    // What every call and every report of an agent writes.
    await execute(db, `UPDATE agents SET last_seen_at = now() WHERE id = $1`, [agent!.id]);
    await execute(db, `UPDATE agents SET applied_version = 3, applied_hash = 'abc' WHERE id = $1`, [agent!.id]);
    await execute(db, `UPDATE agents SET name = name WHERE id = $1`, [agent!.id]);
    expect(await configurationRevision(db, org)).toBe(before);
    await execute(db, `UPDATE agents SET name = 'agent-2' WHERE id = $1`, [agent!.id]);
    expect(Number(await configurationRevision(db, org))).toBe(Number(before) + 1);
  });

  it("count an organisation's time zone, not its other settings, and leave other organisations' revisions alone", async () => {
    const [org, other] = await Promise.all([createOrgWithItems(db, [{ name: "a" }]), createOrgWithItems(db, [{ name: "a" }])]);
    const [before, otherBefore] = await Promise.all([configurationRevision(db, org), configurationRevision(db, other)]);
    await execute(db, `UPDATE organizations SET prometheus_creates_series = false WHERE id = $1`, [org]);
    expect(await configurationRevision(db, org)).toBe(before);
    await execute(db, `UPDATE organizations SET time_zone = 'Europe/Stockholm' WHERE id = $1`, [org]);
    expect(Number(await configurationRevision(db, org))).toBe(Number(before) + 1);
    expect(await configurationRevision(db, other)).toBe(otherBefore);
  });

  it("count a statement of many rows once: an import of 500 hosts is one change", async () => {
    const org = await createOrgWithItems(db, [{ name: "a" }]);
    const before = Number(await configurationRevision(db, org));
    const added = await execute(db, `INSERT INTO hosts (organization_id, name) SELECT $1, 'bulk-' || n FROM generate_series(1, 500) AS n`, [
      org,
    ]);
    expect(added).toBe(500);
    expect(Number(await configurationRevision(db, org))).toBe(before + 1);
    await execute(db, `DELETE FROM hosts WHERE organization_id = $1 AND name LIKE 'bulk-%'`, [org]);
    expect(Number(await configurationRevision(db, org))).toBe(before + 2);
  });

  it("read the same before and after the changes are folded, folded once by two workers at the same time", async () => {
    const org = await createOrgWithItems(db, [{ name: "a" }, { name: "b" }]);
    const [a, b] = await itemIds(org);
    await withConnection(db, (query) => editItem(query, a!, 3));
    await withConnection(db, (query) => editItem(query, b!, 4));
    const before = await configurationRevision(db, org);
    const unfolded = await changeRows(org);
    expect(unfolded).toBeGreaterThanOrEqual(3); // the organisation, its items, the two edits

    // Changes younger than the kept minute stay as rows.
    await foldConfigurationChanges(db);
    expect(await configurationRevision(db, org)).toBe(before);

    const folded = await Promise.all([foldConfigurationChanges(db, 0), foldConfigurationChanges(db, 0)]);
    expect(folded.some((n) => n >= unfolded)).toBe(true);
    expect(await changeRows(org)).toBe(0);
    expect(await configurationRevision(db, org)).toBe(before);

    // Folded again: added to the count the first fold made.
    await withConnection(db, (query) => editItem(query, a!, 5));
    expect(Number(await configurationRevision(db, org))).toBe(Number(before) + 1);
    await foldConfigurationChanges(db, 0);
    expect(Number(await configurationRevision(db, org))).toBe(Number(before) + 1);
  });

  it("never go back when an organisation is deleted, folded or not", async () => {
    let last = BigInt(await deployedConfigurationRevision(db));
    const look = async () => {
      const revision = BigInt(await deployedConfigurationRevision(db));
      expect(revision).toBeGreaterThan(last);
      last = revision;
    };
    const org = await createOrgWithItems(db, [{ name: "a" }]);
    await look();
    await foldConfigurationChanges(db, 0);
    await execute(db, `DELETE FROM organizations WHERE id = $1`, [org]);
    await look();
    const org2 = await createOrgWithItems(db, [{ name: "a" }]);
    await look();
    await execute(db, `DELETE FROM organizations WHERE id = $1`, [org2]);
    await look();
    await foldConfigurationChanges(db, 0);
    expect(BigInt(await deployedConfigurationRevision(db))).toBeGreaterThanOrEqual(last);
  });
});
