import { expect, test } from "@playwright/test";
import { openMenu, signIn } from "./fixtures";

test("pages carry a per-request CSP nonce and the other security headers, and work under them", async ({ page, request }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) violations.push(message.text());
  });
  const first = await request.get("/sign-in");
  const second = await request.get("/sign-in");
  const policy = first.headers()["content-security-policy"] ?? "";
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
  expect(nonce).toBeTruthy();
  expect(second.headers()["content-security-policy"]).not.toContain(`'nonce-${nonce}'`);
  expect(policy).toMatch(/frame-ancestors 'none'/);
  expect(first.headers()).toMatchObject({
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
  });
  // Next.js stamps its own scripts with the nonce.
  expect(await first.text()).toContain(`nonce="${nonce}"`);

  // Scripts run: signing in (a client-side form) and the dashboard work, with no CSP report.
  await signIn(page);
  // The navigation's link (behind the menu at a phone's width), not the overview's "Open alerts"
  // card, which is a link only while alerts are open.
  await openMenu(page);
  await page.getByRole("navigation").getByRole("link", { name: "Alerts", exact: true }).click();
  await expect(page).toHaveURL(/\/alerts/);
  expect(violations).toEqual([]);
});

test("API answers forbid everything a browser could do with them", async ({ request }) => {
  const health = await request.get("/api/health");
  expect(health.headers()["content-security-policy"]).toMatch(/^default-src 'none'/);
  expect(health.headers()["x-content-type-options"]).toBe("nosniff");
});
