import { expect, test } from "@playwright/test";
import { openMenu, signIn } from "./fixtures";

test("one click deploys the configuration to the local agent and shows its progress live", async ({ page }) => {
  await signIn(page);
  await openMenu(page);
  await page.getByRole("link", { name: "Deploy" }).click();
  await expect(page.getByRole("heading", { name: "Deploy configuration" })).toBeVisible();

  // npm start provisions the agent "local" with checks of this server; the diff shows what it will start running.
  const local = page.getByTestId("preview-local");
  await expect(local).toContainText(/\+ localhost-health|no change/);
  // The other project's run (desktop or phone) may have deployed it already: then there is nothing to deploy.
  if (!(await local.textContent())?.includes("no change")) {
    await expect(local).toContainText("+ localhost-health");
    await expect(local).toContainText("+ localhost-tidemark");

    await page.getByLabel("Deployment message").fill("first deploy from the browser test");
    await page.getByRole("button", { name: "Deploy", exact: true }).click();

    const progress = page.getByRole("region", { name: /Progress of version \d+/ });
    await expect(progress).toBeVisible();
    // The real agent process long-polls, applies the configuration and reports back.
    await expect(progress.getByTestId("target-local")).toContainText("applied", { timeout: 45_000 });
    await expect(progress).toContainText("every agent applied it");
  }

  const history = page.getByRole("region", { name: "Deployment history" });
  await expect(history).toContainText("first deploy from the browser test");
  await expect(local).toContainText("no change");

  // The agents page shows the version the agent applied.
  await openMenu(page);
  await page.getByRole("link", { name: "Agents" }).click();
  await expect(page).toHaveURL(/\/agents(\?org=[\w-]+)?$/);
  const row = page.getByRole("region", { name: "Agents" }).getByRole("row", { name: /local/ });
  await expect(row).toContainText(/s ago/);
  await expect(row.getByRole("cell").nth(3)).not.toHaveText("—");
});
