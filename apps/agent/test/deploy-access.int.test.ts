import { agentConfigResponse, agentStatusResponse } from "@tidemark/api/http";
import type { Database } from "@tidemark/db/client";
import { ensureAgentChecks } from "@tidemark/db/fleet";
import { testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInCaller } from "./harness.ts";

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

const poll = (token: string, after: string | number) =>
  agentConfigResponse(db, new Request(`http://t/api/agent/config?after=${after}`, { headers: { authorization: `Bearer ${token}` } }), {
    holdMs: 300,
    checkEveryMs: 50,
  });

describe("deploy and agent access", () => {
  it("lets only editors deploy and only admins manage agents", async () => {
    const editor = await signedInCaller(db, "editor");
    await expect(editor.caller.agents.create({ name: "x" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const deployed = await editor.caller.deploy.deploy({ message: "empty org" });
    expect(deployed).toMatchObject({ version: 1, targets: 0 });
    const admin = await signedInCaller(db, "admin");
    await admin.caller.agents.create({ name: "dup" });
    await expect(admin.caller.agents.create({ name: "dup" })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(admin.caller.agents.create({ name: "has space" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("keeps organisations apart: versions, progress, rollback and configs", async () => {
    const a = await signedInCaller(db);
    const b = await signedInCaller(db);
    const { agent, token } = await a.caller.agents.create({ name: "edge" });
    await ensureAgentChecks(
      db,
      a.organization.id,
      agent.id,
      "h",
      [{ name: "s", url: "shell://h", schedules: ["1M"], items: [{ name: "i", description: "", execStatement: "true" }] }],
      "test",
    );
    await a.caller.deploy.deploy({});
    await expect(b.caller.deploy.progress({ version: 1 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(b.caller.deploy.rollback({ version: 1 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await b.caller.deploy.list()).toEqual([]);
    expect(await b.caller.agents.list()).toEqual([]);
    await expect(b.caller.agents.revoke({ id: agent.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const response = await poll(token, 0);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { checks: { id: string }[] }).checks.map((c) => c.id)).toEqual(["h-s"]);
  });

  it("answers the agent endpoints with 401, 400, 204 and 404 where they apply", async () => {
    const { caller } = await signedInCaller(db);
    const { agent, token } = await caller.agents.create({ name: "edge" });
    expect((await poll("tm_agent_nope", 0)).status).toBe(401);
    expect((await poll(token, "-1")).status).toBe(400);
    const started = Date.now();
    expect((await poll(token, 0)).status).toBe(204);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    const report = (body: unknown) =>
      agentStatusResponse(
        db,
        new Request("http://t/api/agent/status", {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    expect((await report({ version: 9, hash: "a".repeat(64), status: "applied" })).status).toBe(404);
    expect((await report({ version: 1, status: "done" })).status).toBe(400);
    await caller.agents.revoke({ id: agent.id });
    expect((await poll(token, 0)).status).toBe(401);
  });
});
