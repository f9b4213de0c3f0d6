import { chromium } from "@playwright/test";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const page = await browser.newPage({ viewport: { width: 360, height: 800 } });
const base = "http://127.0.0.1:3100";
await page.goto(`${base}/sign-in`);
await page.getByLabel("Email").fill("demo@tidemark.dev");
await page.getByLabel("Password").fill("tidemark-demo");
await page.getByRole("button", { name: "Sign in" }).click();
await page.locator(".topbar-org").waitFor();
for (const p of ["/settings/members", "/settings/tokens", "/settings/audit", "/settings/organization"]) {
  await page.goto(base + p);
  await page.waitForLoadState("networkidle");
  const r = await page.evaluate(() => {
    const W = window.innerWidth;
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll("body *"))) {
      const b = el.getBoundingClientRect();
      if (b.right > W + 0.5 && b.width > 0) {
        const parentOver = el.parentElement && el.parentElement.getBoundingClientRect().right > W + 0.5;
        if (!parentOver) out.push(`${el.tagName.toLowerCase()}.${(el.className || "").toString().replace(/ /g, ".")} right=${b.right.toFixed(0)} w=${b.width.toFixed(0)}`);
      }
    }
    return { sw: document.documentElement.scrollWidth, W, out: out.slice(0, 8) };
  });
  console.log(p, r.sw, r.W, r.out);
  await page.screenshot({ path: `/tmp/ov${p.replace(/\//g, "_")}.png`, fullPage: false });
}
await browser.close();
