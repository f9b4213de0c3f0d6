import { expect, test } from "@playwright/test";
import { pageOverflow as overflow, signIn } from "./fixtures";
import { everyPage, visit } from "./pages";

/** The phone project's width (390 px) and the narrowest the layout is promised down to. */
const WIDTHS = [390, 360];

test("no page is wider than a phone's screen, down to 360 px", async ({ page }) => {
  test.skip(test.info().project.name !== "phone", "about a phone's width only");
  test.setTimeout(300_000);
  const height = page.viewportSize()?.height ?? 844;
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height });
    await page.context().clearCookies();
    await visit(page, "/sign-in", () => expect(page.getByRole("button", { name: "Sign in" })).toBeVisible());
    expect.soft(await overflow(page), `/sign-in at ${width} px`).toBeLessThanOrEqual(0);
    await visit(page, "/sign-up", () => expect(page.getByRole("button", { name: "Create account" })).toBeVisible());
    expect.soft(await overflow(page), `/sign-up at ${width} px`).toBeLessThanOrEqual(0);
    await signIn(page);
    const { pages } = await everyPage(page);
    for (const [path, ready] of pages) {
      await visit(page, path, ready);
      // Soft: one run lists every page that overflows, not only the first.
      expect.soft(await overflow(page), `${path} at ${width} px is wider than the window by`).toBeLessThanOrEqual(0);
    }
  }
});
