import { describe, expect, it } from "vitest";
import {
  describeMatchers,
  draftOf,
  EMPTY_RECEIVER,
  type ReceiverDraft,
  receiverInput,
} from "../../../src/components/alerts/receiver-draft";

const draft = (patch: Partial<ReceiverDraft>): ReceiverDraft => ({
  ...EMPTY_RECEIVER,
  name: "ops",
  url: "https://hooks.example.com/x",
  ...patch,
});

describe("a receiver's form", () => {
  it.each<[string, Partial<ReceiverDraft>, Partial<Record<keyof ReceiverDraft, RegExp>>]>([
    ["no name", { name: "  " }, { name: /name/ }],
    ["no URL", { url: "" }, { url: /required/ }],
    ["not a URL", { url: "hooks.example.com" }, { url: /not a URL/ }],
    ["an SMTP URL on a webhook", { url: "smtp://mail.example.com" }, { url: /must be http/ }],
    ["an http URL on an email receiver", { kind: "email", url: "https://mail.example.com", emailTo: "a@b.c" }, { url: /SMTP server/ }],
    ["no recipient", { kind: "email", url: "smtp://mail.example.com", emailTo: "" }, { emailTo: /addresses/ }],
    ["a bad sender", { kind: "email", url: "smtp://mail.example.com", emailTo: "a@b.c", emailFrom: "me" }, { emailFrom: /address/ }],
    ["a repeat in seconds", { repeatMinutes: "0.5" }, { repeatMinutes: /whole minutes/ }],
    ["a repeat over a week", { repeatMinutes: "10081" }, { repeatMinutes: /a week/ }],
    ["a glob too long", { host: "x".repeat(201) }, { host: /200/ }],
  ])("says at the field what is wrong: %s", (_what, patch, expected) => {
    const checked = receiverInput(draft(patch));
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(Object.keys(checked.errors).sort()).toEqual(Object.keys(expected).sort());
    for (const [field, message] of Object.entries(expected))
      expect(checked.errors[field as keyof ReceiverDraft]).toMatch(message as RegExp);
  });

  it("makes the API input: empty matchers match everything, minutes become seconds, email fields only for email", () => {
    expect(receiverInput(draft({ emailTo: "ignored@x.y", repeatMinutes: "" }))).toEqual({
      ok: true,
      input: {
        name: "ops",
        kind: "webhook",
        url: "https://hooks.example.com/x",
        enabled: true,
        matchers: {},
        repeatIntervalSeconds: null,
        emailTo: null,
        emailFrom: null,
      },
    });
    const email = receiverInput(
      draft({
        kind: "email",
        url: "smtp://mail.example.com:587",
        emailTo: "a@b.c, d@e.f",
        severities: ["CRITICAL"],
        host: " db* ",
        repeatMinutes: "60",
      }),
    );
    expect(email).toMatchObject({
      ok: true,
      input: { matchers: { severities: ["CRITICAL"], host: "db*" }, repeatIntervalSeconds: 3600, emailTo: "a@b.c, d@e.f", emailFrom: null },
    });
  });

  it("round-trips a stored receiver through the form", () => {
    const stored = {
      name: "mail",
      kind: "email" as const,
      url: "smtp://mail.example.com",
      emailTo: "a@b.c",
      emailFrom: null,
      matchers: { severities: ["WARNING" as const], service: "http" },
      repeatIntervalSeconds: 1800,
      enabled: false,
    };
    const checked = receiverInput(draftOf(stored));
    expect(checked).toEqual({ ok: true, input: { ...stored } });
    expect(describeMatchers(stored.matchers)).toBe("WARNING · service http");
    expect(describeMatchers({})).toBe("every alert");
  });
});
