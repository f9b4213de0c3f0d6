import { describe, expect, it } from "vitest";
import { auditActorLabel } from "../../src/components/settings/audit-actor.ts";

describe("who the audit page says made a change", () => {
  it.each([
    [{ actorKind: "user", actorName: null, actorUserName: "Ada" }, "Ada"],
    [{ actorKind: "user", actorName: null, actorUserName: null }, "a former member"],
    [{ actorKind: "api-token", actorName: "ci-deployer", actorUserName: "Ada" }, "API token ci-deployer of Ada"],
    [{ actorKind: "agent", actorName: "edge-1", actorUserName: null }, "agent edge-1"],
    [{ actorKind: "system", actorName: "npm start (the local agent)", actorUserName: null }, "system: npm start (the local agent)"],
    [{ actorKind: "system", actorName: null, actorUserName: null }, "system"],
    [{ actorKind: "anonymous", actorName: "client at 192.0.2.1", actorUserName: null }, "client at 192.0.2.1"],
  ])("%o → %s", (entry, label) => {
    expect(auditActorLabel(entry)).toBe(label);
  });
});
