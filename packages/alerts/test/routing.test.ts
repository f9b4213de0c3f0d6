import { describe, expect, it } from "vitest";
import { postableAlerts, receiverRequest, slackMessage } from "../src/receiver-messages.ts";
import { notificationAction, type ReceiverPolicy, receiverWants, repeatDue, repeatIntervalSeconds } from "../src/routing.ts";
import { alertmanagerPayload } from "../src/webhook-payload.ts";

const receiver = (over: Partial<ReceiverPolicy> = {}): ReceiverPolicy => ({
  id: "r",
  name: "r",
  kind: "webhook",
  matchers: {},
  repeatIntervalSeconds: null,
  ...over,
});

describe("receiverWants", () => {
  it.each([
    [{}, "web01-http-latency", "WARNING", true],
    [{ severities: ["CRITICAL"] }, "web01-http-latency", "WARNING", false],
    [{ severities: ["CRITICAL"] }, "web01-http-latency", "CRITICAL", true],
    [{ host: "web*" }, "web01-http-latency", "WARNING", true],
    [{ host: "db*" }, "web01-http-latency", "WARNING", false],
    [{ service: "http", item: "lat*" }, "web01-http-latency", "UNKNOWN", true],
    [{ service: "https" }, "web01-http-latency", "CRITICAL", false],
    [{ host: "web\\-*" }, "web\\-1-http-latency", "CRITICAL", false],
    [{ host: "web-*" }, "web\\-1-http-latency", "CRITICAL", true],
  ] as const)("%o for %s at %s → %s", (matchers, key, severity, wanted) => {
    expect(receiverWants(receiver({ matchers: matchers as ReceiverPolicy["matchers"] }), key, severity)).toBe(wanted);
  });
});

describe("notificationAction", () => {
  const base = { heldForFlapping: false, acknowledged: false, silencedBy: null, firingWasSent: true };
  it.each([
    [{ due: "firing" as const }, { action: "send" }],
    [
      { due: "firing" as const, acknowledged: true },
      { action: "hold", reason: "acknowledged" },
    ],
    [
      { due: "firing" as const, silencedBy: "s1" },
      { action: "hold", reason: "silenced by s1" },
    ],
    [
      { due: "firing" as const, heldForFlapping: true },
      { action: "hold", reason: "the series is flapping" },
    ],
    // Resolutions: acknowledgement and silence do not swallow them; a never-announced alert has none.
    [{ due: "resolved" as const, acknowledged: true }, { action: "send" }],
    [{ due: "resolved" as const, silencedBy: "s1" }, { action: "send" }],
    [{ due: "resolved" as const, firingWasSent: false }, { action: "skip" }],
    [
      { due: "resolved" as const, heldForFlapping: true },
      { action: "hold", reason: "the series is flapping" },
    ],
  ])("%o → %o", (input, expected) => {
    expect(notificationAction({ ...base, ...input })).toEqual(expected);
  });
});

describe("repeats", () => {
  const now = new Date("2026-11-24T05:00:00Z");
  const ago = (s: number) => new Date(now.getTime() - s * 1000);
  it.each([
    [receiver(), 3600, false, false, false],
    [receiver({ repeatIntervalSeconds: 300 }), 299, false, false, false],
    [receiver({ repeatIntervalSeconds: 300 }), 300, false, false, true],
    [receiver({ repeatIntervalSeconds: 300 }), 900, true, false, false],
    [receiver({ repeatIntervalSeconds: 300 }), 900, false, true, false],
    // Alertmanager forgets what is not resent: every minute at most, acknowledged or silenced.
    [receiver({ kind: "alertmanager" }), 60, true, true, true],
    [receiver({ kind: "alertmanager", repeatIntervalSeconds: 3600 }), 61, false, false, true],
    [receiver({ kind: "alertmanager" }), 59, false, false, false],
  ])("%o sent %i s ago (acknowledged %s, silenced %s) → %s", (r, seconds, acknowledged, silenced, due) => {
    expect(repeatDue({ receiver: r, lastSentAt: ago(seconds), now, acknowledged, silenced })).toBe(due);
  });
  it("caps Alertmanager's interval at its resend delay", () => {
    expect(repeatIntervalSeconds(receiver({ kind: "alertmanager", repeatIntervalSeconds: 5 }))).toBe(5);
    expect(repeatIntervalSeconds(receiver({ kind: "alertmanager", repeatIntervalSeconds: 600 }))).toBe(60);
  });
});

describe("what receivers are sent", () => {
  const opened = new Date("2026-11-24T04:00:00Z");
  const now = new Date("2026-11-24T05:00:00Z");
  const body = (status: "firing" | "resolved") =>
    alertmanagerPayload({
      receiver: "r",
      externalUrl: "https://tidemark.example/",
      organization: "acme",
      alert: {
        id: "a1",
        key: "web01-http-latency",
        status,
        severity: "CRITICAL",
        openedAt: opened,
        closedAt: status === "resolved" ? now : null,
        value: 250,
        threshold: 100,
        warning: 110,
        critical: 130,
        explanation: "CRITICAL 250 (100 < W < 110 < C < 130)",
        flapping: false,
        itemId: "i1",
      },
    });

  it("posts Alertmanager's API form: firing ends four resends from now, resolved when it recovered", () => {
    expect(postableAlerts(body("firing"), now, 60)).toEqual([
      {
        labels: {
          alertname: "TidemarkThreshold",
          organization: "acme",
          series: "web01-http-latency",
          host: "web01",
          service: "http",
          item: "latency",
          severity: "critical",
        },
        annotations: expect.objectContaining({ value: "250", threshold: "100", preview: "https://tidemark.example/items/i1" }),
        startsAt: opened.toISOString(),
        endsAt: "2026-11-24T05:04:00.000Z",
        generatorURL: "https://tidemark.example/alerts?alert=a1",
      },
    ]);
    expect(postableAlerts(body("resolved"), now, 60)[0]?.endsAt).toBe(now.toISOString());
    expect(receiverRequest("alertmanager", "http://am:9093/", body("firing"), now, 60).url).toBe("http://am:9093/api/v2/alerts");
    expect(receiverRequest("alertmanager", "http://am:9093/api/v2/alerts", body("firing"), now, 60).url).toBe(
      "http://am:9093/api/v2/alerts",
    );
  });

  it("writes Slack text with the value, threshold and links", () => {
    expect(slackMessage(body("firing")).text.split("\n")).toEqual([
      "*[CRITICAL] web01-http-latency*",
      "web01-http-latency is CRITICAL",
      "CRITICAL 250 (100 < W < 110 < C < 130)",
      "value 250, threshold 100 (warning 110, critical 130)",
      "since 2026-11-24T04:00:00.000Z",
      "preview: https://tidemark.example/items/i1",
      "alert: https://tidemark.example/alerts?alert=a1",
    ]);
    expect(slackMessage(body("resolved")).text).toMatch(/^\*\[RESOLVED\] web01-http-latency\*\n.*OK again/);
  });
});
