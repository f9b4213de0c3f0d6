import { describe, expect, it } from "vitest";
import { signUpSchema } from "../../../src/server/sign-up-schema";

const base = { name: "Ingrid Berg", email: "ingrid@acme.example", organizationName: "Acme" };

describe("sign-up refuses passwords that are easy to guess", () => {
  it.each([
    ["password12", /commonly used/],
    ["ingridacme2024", /too easy to guess/],
    ["1234567890", /too easy to guess/],
  ])("%s", (password, reason) => {
    const parsed = signUpSchema.safeParse({ ...base, password });
    expect(parsed.success).toBe(false);
    const issue = parsed.error?.issues.find((i) => i.path[0] === "password");
    expect(issue?.message).toMatch(reason);
  });

  it("accepts a few unrelated words", () => {
    expect(signUpSchema.safeParse({ ...base, password: "gentle river lantern" }).success).toBe(true);
  });
});
