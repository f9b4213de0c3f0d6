import { describe, expect, it } from "vitest";
import { passwordWeakness } from "../src/password-strength.ts";

describe("new passwords (NIST SP 800-63B: no common, dictionary, repetitive or context passwords)", () => {
  it.each([
    ["password12", /commonly used/],
    ["qwertyuiop", /frequently used/],
    ["aaaaaaaaaaaa", /Repeated characters/],
    ["1234567890", /too easy to guess/],
    ["short", /at least 10 characters/],
  ])("refuses %s", (password, reason) => {
    expect(passwordWeakness(password)).toMatch(reason);
  });

  it("refuses a password made of the user's own name and organisation", () => {
    expect(passwordWeakness("ingridacme2024", ["ingrid@acme.example", "Ingrid", "Acme"])).toMatch(/too easy to guess/);
  });

  it.each(["correct horse battery", "gentle-river-88-lantern", "Tr0ub4dor&3xx"])("accepts %s", (password) => {
    expect(passwordWeakness(password)).toBeNull();
  });
});
