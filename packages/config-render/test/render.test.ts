import type { Configuration, Service } from "@tidemark/model";
import { agentConfigSchema } from "@tidemark/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  canonicalJson,
  checkId,
  type DeploymentSnapshot,
  diffChecks,
  renderAgentConfig,
  renderChecks,
  snapshotHash,
  timeoutFor,
} from "../src/index.ts";
import { item } from "./fixtures.ts";

const service = (name: string, url: string, items: ReturnType<typeof item>[], schedules = ["1M"]): Service => ({
  name,
  description: "",
  schedules,
  url,
  sendServiceData: true,
  items,
});

const configuration: Configuration = {
  hosts: [
    {
      name: "web-01",
      alias: null,
      description: "",
      services: [
        service(
          "tcp",
          "shell://localhost",
          [item("time", `{"check":"check_tcp -H x -p 80","label":"time"}`), item("alive", "check_dummy 0")],
          ["30S"],
        ),
        service("http", "https://web-01/health", [item("status", "status")]),
        service("calc", "bischeck://cache", [item("avg", "avg(web\\-01-tcp-time[0:9])")]),
      ],
    },
    { name: "db01", alias: null, description: "", services: [service("pg", "postgres://db01/postgres", [item("conns", "SELECT 1")])] },
  ],
};

const snapshot: DeploymentSnapshot = {
  alerting: [],
  configuration,
  assignments: [
    { host: "web-01", service: "tcp", agentId: "a1" },
    { host: "web-01", service: "http", agentId: "a1" },
    { host: "web-01", service: "calc", agentId: "a1" },
    { host: "db01", service: "pg", agentId: "a2" },
  ],
};

describe("renderChecks", () => {
  it("renders only the agent's own services, never bischeck:// calculations, sorted by id", () => {
    const checks = renderChecks(snapshot, "a1");
    expect(checks.map((c) => c.id)).toEqual(["web\\-01-http", "web\\-01-tcp"]);
    const tcp = checks[1]!;
    expect(tcp.items.map((i) => i.name)).toEqual(["alive", "time"]);
    expect(tcp.items[1]).toEqual({ name: "time", key: "web\\-01-tcp-time", exec: `{"check":"check_tcp -H x -p 80","label":"time"}` });
    expect(renderChecks(snapshot, "a2").map((c) => c.id)).toEqual(["db01-pg"]);
    expect(renderChecks(snapshot, "nobody")).toEqual([]);
  });

  it("produces configs the agent protocol accepts, hashing the checks only", () => {
    const config = renderAgentConfig(snapshot, { id: "a1", name: "edge" }, 7);
    expect(agentConfigSchema.parse(config)).toEqual(config);
    const again = renderAgentConfig(snapshot, { id: "a1", name: "edge" }, 8);
    expect(again.hash).toBe(config.hash);
    expect(renderAgentConfig(snapshot, { id: "a2", name: "db" }, 7).hash).not.toBe(config.hash);
  });

  it("keeps a check shorter than its interval", () => {
    expect(timeoutFor(["1M"])).toBe(10_000);
    expect(timeoutFor(["5S", "1M"])).toBe(4000);
    expect(timeoutFor(["0 15 10 ? * MON-FRI"])).toBe(10_000);
    expect(checkId("a-b", "c")).toBe("a\\-b-c");
  });
});

describe("determinism", () => {
  it("renders and hashes the same whatever order the snapshot lists things in", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), (seed) => {
        const shuffle = <T>(list: readonly T[]) =>
          [...list].sort((a, b) => ((canonicalJson(a).length * 31 + seed) % 7) - ((canonicalJson(b).length * 17 + seed) % 5));
        const shuffled: DeploymentSnapshot = {
          alerting: [],
          configuration: {
            hosts: shuffle(configuration.hosts).map((h) => ({
              ...h,
              services: shuffle(h.services).map((s) => ({ ...s, items: shuffle(s.items) })),
            })),
          },
          assignments: shuffle(snapshot.assignments),
        };
        expect(snapshotHash(shuffled)).toBe(snapshotHash(snapshot));
        expect(canonicalJson(renderChecks(shuffled, "a1"))).toBe(canonicalJson(renderChecks(snapshot, "a1")));
      }),
    );
  });

  it("changes the snapshot hash when a service moves to another agent", () => {
    const moved = { ...snapshot, assignments: snapshot.assignments.map((a) => (a.service === "pg" ? { ...a, agentId: "a1" } : a)) };
    expect(snapshotHash(moved)).not.toBe(snapshotHash(snapshot));
  });

  it("sorts object keys at every level", () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[{"y":2,"z":1}]},"b":1}');
  });
});

describe("diffChecks", () => {
  it("reports added, removed and changed checks with the changed parts", () => {
    const before = renderChecks(snapshot, "a1");
    const changedConfig: DeploymentSnapshot = {
      alerting: [],
      configuration: {
        hosts: [
          {
            ...configuration.hosts[0]!,
            services: [
              service(
                "tcp",
                "shell://localhost",
                [item("time", `{"check":"check_tcp -H x -p 8080","label":"time"}`), item("up", "check_dummy 0")],
                ["10S"],
              ),
              service("ping", "shell://localhost", [item("rta", "check_dummy 0 1")]),
            ],
          },
        ],
      },
      assignments: [
        { host: "web-01", service: "tcp", agentId: "a1" },
        { host: "web-01", service: "ping", agentId: "a1" },
      ],
    };
    const diff = diffChecks(before, renderChecks(changedConfig, "a1"));
    expect(diff.changes.map((c) => [c.id, c.change])).toEqual([
      ["web\\-01-http", "removed"],
      ["web\\-01-ping", "added"],
      ["web\\-01-tcp", "changed"],
    ]);
    const tcp = diff.changes.find((c) => c.id === "web\\-01-tcp")!;
    expect(tcp.fields).toEqual([
      { field: "schedules", before: "30S", after: "10S" },
      { field: "timeout", before: "10000 ms", after: "8000 ms" },
    ]);
    expect(tcp.items).toEqual([
      {
        name: "time",
        change: "changed",
        fields: [
          {
            field: "command",
            before: `{"check":"check_tcp -H x -p 80","label":"time"}`,
            after: `{"check":"check_tcp -H x -p 8080","label":"time"}`,
          },
        ],
      },
      {
        name: "up",
        change: "added",
        fields: [
          { field: "command", before: null, after: "check_dummy 0" },
          { field: "series", before: null, after: "web\\-01-tcp-up" },
        ],
      },
      {
        name: "alive",
        change: "removed",
        fields: [
          { field: "command", before: "check_dummy 0", after: null },
          { field: "series", before: "web\\-01-tcp-alive", after: null },
        ],
      },
    ]);
    expect(diff.unchanged).toBe(0);
    expect(diffChecks(before, before)).toEqual({ changes: [], unchanged: 2 });
    expect(diffChecks(null, before).changes.map((c) => c.change)).toEqual(["added", "added"]);
  });
});
