import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, securityHeaders, servedOverHttps } from "../../../src/server/security-headers";

const directives = (policy: string) => new Map(policy.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1).join(" ")]));

describe("security headers", () => {
  it("pages allow only scripts carrying the request's nonce, and may not be framed", () => {
    const policy = directives(contentSecurityPolicy("abc123", false));
    expect(policy.get("script-src")).toBe("'self' 'nonce-abc123' 'strict-dynamic'");
    expect(policy.get("frame-ancestors")).toBe("'none'");
    expect(policy.get("object-src")).toBe("'none'");
    expect(policy.get("base-uri")).toBe("'self'");
    expect(contentSecurityPolicy("abc123", false)).not.toMatch(/unsafe-eval/);
  });

  it.each([
    [{ nonce: "n", https: false, development: false }, false],
    [{ nonce: null, https: true, development: false }, true],
  ])("%j", (options, hsts) => {
    const headers = securityHeaders(options);
    expect(headers).toMatchObject({ "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "same-origin" });
    expect(headers["Content-Security-Policy"]).toMatch(/frame-ancestors 'none'/);
    expect("Strict-Transport-Security" in headers).toBe(hsts);
    if (options.nonce === null) expect(headers["Content-Security-Policy"]).toMatch(/^default-src 'none'/);
  });

  it("knows https from the URL or the proxy's X-Forwarded-Proto", () => {
    expect(servedOverHttps("https://t.example/", new Headers())).toBe(true);
    expect(servedOverHttps("http://t.example/", new Headers({ "x-forwarded-proto": "https" }))).toBe(true);
    expect(servedOverHttps("http://t.example/", new Headers())).toBe(false);
  });
});
