import { expect, test } from "@playwright/test";
import { openItem, signIn } from "./fixtures";

test("an admin switches remote write's create-on-first-sight and writes the remote_write block for other labels", async ({ page }) => {
  await signIn(page);
  await page.goto("/settings/organization");
  const panel = page.getByRole("region", { name: "Prometheus remote write" });
  const creates = panel.getByRole("checkbox", { name: /Create the host, service and item of a series seen for the first time/ });
  await expect(creates).toBeEnabled();
  const before = await creates.isChecked();
  await creates.setChecked(!before);
  await expect(panel.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect(creates).toBeChecked({ checked: !before });
  await creates.setChecked(before);
  await expect(creates).toBeChecked({ checked: before });

  const block = panel.getByLabel("remote_write block for prometheus.yml");
  await expect(block).toHaveValue(/url: http.*\/api\/prom\/write\n/);
  await panel.getByLabel("Host label").fill("9cluster");
  await expect(panel.getByText("a label name: letters, digits and _, not starting with a digit")).toBeVisible();
  await expect(block).toHaveCount(0);
  await panel.getByLabel("Host label").fill("cluster");
  await panel.getByLabel("Service label").fill("app");
  await expect(block).toHaveValue(/\/api\/prom\/write\?host=cluster&service=app\n/);
});

test("the item page exports the deployed threshold as Prometheus rules, and says why when it cannot", async ({ page }) => {
  await signIn(page);
  await openItem(page, "web03-http-latency");
  const panel = page.getByRole("region", { name: "Prometheus rules" });
  await panel.getByRole("button", { name: "Export rules" }).click();
  await expect(panel.getByRole("alert")).toHaveText(
    /^Cannot export: the item is not remote-written by Prometheus: give the PromQL selector/,
  );

  await panel.getByLabel(/PromQL selector/).fill('http_latency_ms{instance="web03"}');
  await panel.getByRole("button", { name: "Export rules" }).click();
  await expect(panel.getByTestId("rules-version")).toHaveText(
    /^From deployed version \d+, measuring http_latency_ms\{instance="web03"\}\.$/,
  );
  const yaml = panel.getByLabel("Rule group YAML");
  await expect(yaml).toHaveValue(/^# Tidemark: the threshold policy of web03-http-latency in force \(deployed version \d+\)\n/);
  await expect(yaml).toHaveValue(/alert: TidemarkThresholdProblem/);
  const [download] = await Promise.all([page.waitForEvent("download"), panel.getByRole("button", { name: /^Download / }).click()]);
  expect(download.suggestedFilename()).toBe("web03-http-latency.rules.yml");
});
