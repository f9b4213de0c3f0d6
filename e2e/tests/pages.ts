import { expect, type Page } from "@playwright/test";

/**
 * Every page of the signed-in app, with what shows it is ready (charts and tables fill in after the
 * page). Pages that need an id find one through the UI's own API. For the specs that judge every
 * page: accessibility, and no horizontal overflow at a phone's width.
 */
export async function everyPage(page: Page): Promise<{ pages: [string, () => Promise<void>][]; item: { id: string; seriesId: number } }> {
  const item = await page.evaluate(async () => {
    const input = encodeURIComponent(JSON.stringify({ json: { search: "web03-http-latency", limit: 1 } }));
    const body = await (await fetch(`/api/trpc/dashboard.items?input=${input}`)).json();
    return body.result.data.json.rows[0] as { id: string; seriesId: number };
  });
  const heading = () => expect(page.getByRole("heading").first()).toBeVisible();
  const pages: [string, () => Promise<void>][] = [
    ["/", () => expect(page.getByRole("region", { name: "Service items" }).getByRole("row").nth(1)).toBeVisible()],
    [`/?series=${item.seriesId}`, () => expect(page.locator(".recharts-line-curve").first()).toBeVisible()],
    [
      `/items/${item.id}`,
      () => expect(page.getByRole("region", { name: "Preview" }).locator(".recharts-line-curve").first()).toBeVisible(),
    ],
    ["/items/not-an-id", () => expect(page.getByRole("heading", { name: "Not found" })).toBeVisible()],
    ["/config/items", () => expect(page.getByRole("searchbox", { name: "Search items" })).toBeVisible()],
    ["/config/hosts", () => expect(page.getByRole("searchbox", { name: "Search hosts" })).toBeVisible()],
    ["/config/services", () => expect(page.getByRole("searchbox", { name: "Search services" })).toBeVisible()],
    ["/import", () => expect(page.getByRole("region", { name: "Export to Bischeck" })).toBeVisible()],
    ["/alerts", () => expect(page.getByRole("region", { name: "Timeline" })).toBeVisible()],
    ["/alerts/silences", heading],
    ["/alerts/receivers", () => expect(page.getByRole("form", { name: "Add a receiver" })).toBeVisible()],
    ["/deploy", heading],
    ["/agents", () => expect(page.getByRole("region", { name: "Agents" })).toBeVisible()],
    ["/settings/members", heading],
    ["/settings/tokens", heading],
    ["/settings/audit", heading],
    ["/settings/organization", () => expect(page.getByRole("region", { name: "Prometheus remote write" })).toBeVisible()],
  ];
  return { pages, item };
}

/** Goes to `path` and waits until it is ready and the network is quiet. */
export async function visit(page: Page, path: string, ready: () => Promise<void>) {
  await page.goto(path);
  await ready();
  // Charts and tables fill in after the page: give them their moment before judging.
  await page.waitForLoadState("networkidle").catch(() => {});
}
