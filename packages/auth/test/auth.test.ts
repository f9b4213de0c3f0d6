import { describe, expect, it } from "vitest";
import { hashPassword, hashToken, issueToken, verifyPassword } from "../src/index.ts";

describe("passwords", () => {
  it("verifies the right password and refuses others", async () => {
    const stored = await hashPassword("correct horse battery staple");
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword("correct horse battery staple", stored)).toBe(true);
    expect(await verifyPassword("correct horse battery stapl", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });
  it("salts: the same password hashes differently", async () => {
    expect(await hashPassword("x")).not.toBe(await hashPassword("x"));
  });
  it("refuses malformed stored hashes instead of throwing", async () => {
    expect(await verifyPassword("x", "plaintext")).toBe(false);
    expect(await verifyPassword("x", "bcrypt$1$2$3$a$b")).toBe(false);
  });
});

describe("tokens", () => {
  it("issues distinct secrets whose hash matches and whose prefix is recognisable", () => {
    const a = issueToken("tm_agent");
    const b = issueToken("tm_agent");
    expect(a.secret).not.toBe(b.secret);
    expect(a.secret.startsWith("tm_agent_")).toBe(true);
    expect(hashToken(a.secret)).toBe(a.hash);
    expect(a.hash).not.toContain(a.secret);
    expect(a.secret.startsWith(a.prefix)).toBe(true);
  });
});
