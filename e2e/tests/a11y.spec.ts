import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { signIn } from "./fixtures";
import { everyPage, visit } from "./pages";

/**
 * axe-core on every page, in both themes, at the project's width (1440 and 390 px): no serious or
 * critical violation of WCAG 2.1 A/AA. Pages that need an id find one through the UI's own lists.
 */

async function expectAccessible(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${what}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    );
  // Soft: one run lists every page's problems, not only the first page's.
  expect.soft(serious).toEqual([]);
}

for (const theme of ["light", "dark"] as const) {
  test(`every page is free of serious accessibility problems in the ${theme} theme`, async ({ page, context, baseURL }) => {
    test.setTimeout(240_000);
    await context.addCookies([{ name: "tidemark-theme", value: theme, url: baseURL ?? "http://127.0.0.1:3000" }]);

    await visit(page, "/sign-in", () => expect(page.getByRole("button", { name: "Sign in" })).toBeVisible());
    await expectAccessible(page, "/sign-in");
    await visit(page, "/sign-up", () => expect(page.getByRole("button", { name: "Create account" })).toBeVisible());
    await expectAccessible(page, "/sign-up");

    await signIn(page);
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    const { pages, item } = await everyPage(page);
    for (const [path, ready] of pages) {
      await visit(page, path, ready);
      await expectAccessible(page, path);
    }
    // The open time range picker and the shortcut list are pages of their own to a screen reader.
    await visit(page, `/items/${item.id}`, () => expect(page.getByRole("region", { name: "Preview" })).toBeVisible());
    await page.getByRole("button", { name: /^Time range:/ }).click();
    await expectAccessible(page, "time range picker");
  });
}
