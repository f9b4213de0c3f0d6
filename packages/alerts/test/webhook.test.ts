import { describe, expect, it } from "vitest";
import { alertmanagerPayload, fingerprint, retryDelayMs } from "../src/index.ts";

const alert = {
  id: "7b0c9a52-3a43-4a5d-9a43-111111111111",
  key: "web03-http-latency",
  status: "firing" as const,
  severity: "CRITICAL" as const,
  openedAt: new Date("2026-01-05T10:00:00Z"),
  closedAt: null,
  value: 412.5,
  threshold: 200,
  warning: 240,
  critical: 300,
  explanation: "CRITICAL 412.5 (200 < W < 240 < C < 300)",
  flapping: false,
};

describe("Alertmanager webhook payload", () => {
  it("has the version 4 shape with labels taken from the series key", () => {
    const body = alertmanagerPayload({ receiver: "ops", externalUrl: "https://tidemark.example/", alert });
    expect(body).toMatchObject({
      version: "4",
      status: "firing",
      receiver: "ops",
      externalURL: "https://tidemark.example",
      truncatedAlerts: 0,
      commonLabels: { alertname: "TidemarkThreshold", host: "web03", service: "http", item: "latency", severity: "critical" },
    });
    expect(body.alerts).toHaveLength(1);
    expect(body.alerts[0]).toMatchObject({
      status: "firing",
      startsAt: "2026-01-05T10:00:00.000Z",
      endsAt: "0001-01-01T00:00:00Z",
      generatorURL: `https://tidemark.example/alerts?alert=${alert.id}`,
      annotations: { value: "412.5", threshold: "200", warning: "240", critical: "300", description: alert.explanation },
    });
    expect(body.alerts[0]!.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it("sends endsAt when resolved, and keeps the fingerprint across severities", () => {
    const firing = alertmanagerPayload({ receiver: "ops", externalUrl: "http://x", alert: { ...alert, severity: "WARNING" } });
    const resolved = alertmanagerPayload({
      receiver: "ops",
      externalUrl: "http://x",
      alert: { ...alert, status: "resolved", closedAt: new Date("2026-01-05T10:30:00Z") },
    });
    expect(resolved.status).toBe("resolved");
    expect(resolved.alerts[0]!.endsAt).toBe("2026-01-05T10:30:00.000Z");
    expect(resolved.alerts[0]!.fingerprint).toBe(firing.alerts[0]!.fingerprint);
  });

  it("fingerprints depend on every label but not their order", () => {
    expect(fingerprint({ a: "1", b: "2" })).toBe(fingerprint({ b: "2", a: "1" }));
    expect(fingerprint({ a: "1", b: "2" })).not.toBe(fingerprint({ a: "1", b: "3" }));
  });
});

describe("retry backoff", () => {
  it.each([
    [1, 5_000],
    [2, 10_000],
    [3, 20_000],
    [9, 900_000],
    [10, null],
  ])("after %i failed attempts → %s ms", (attempts, delay) => {
    expect(retryDelayMs(attempts)).toBe(delay);
  });
});
