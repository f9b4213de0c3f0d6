import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { withDatabase } from "./database";
import { signIn } from "./fixtures";

const BISCHECK_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "shared", "bischeck");
const suffix = () => Math.random().toString(36).slice(2, 8);

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("creates a host, a service and an item with field errors on the way, clones and deletes", async ({ page }) => {
  const host = `e2e${suffix()}`;
  await page.goto("/config/hosts");
  await page.getByRole("button", { name: "New host" }).click();
  const form = page.getByRole("form", { name: "Host" });
  await form.getByRole("button", { name: "Create host" }).click();
  await expect(form.getByText("name is required")).toBeVisible();
  await form.getByLabel("Name").fill("has space");
  await form.getByRole("button", { name: "Create host" }).click();
  await expect(form.getByText(/no spaces/)).toBeVisible();
  await form.getByLabel("Name").fill(host);
  await form.getByLabel("Description").fill("made by the browser test");
  await form.getByRole("button", { name: "Create host" }).click();
  await expect(page.getByRole("heading", { name: host })).toBeVisible();

  await page.getByRole("button", { name: "Add service" }).click();
  const service = page.getByRole("form", { name: "Service" });
  await service.getByLabel("Name").fill("http");
  await service.getByLabel("Connection URL").fill("ftp://nowhere");
  await service.getByRole("button", { name: "Create service" }).click();
  await expect(service.getByText(/url must start with/)).toBeVisible();
  await service.getByLabel("Connection URL").fill("https://example.test/health");
  await service.getByLabel("Schedules").fill("1M");
  await service.getByRole("button", { name: "Create service" }).click();
  await expect(page.getByRole("heading", { name: `${host}-http` })).toBeVisible();

  await page.getByRole("button", { name: "Add item" }).click();
  const item = page.getByRole("form", { name: "Service item" });
  await item.getByLabel("Name").fill("latency");
  await item.getByRole("button", { name: "Create item" }).click();
  await expect(item.getByText(/Too small|at least|expected string/i)).toBeVisible();
  await item.getByLabel("Exec statement").fill('{"check":"/usr/lib/nagios/plugins/check_http -H example.test","label":"time"}');
  await item.getByRole("button", { name: "Create item" }).click();
  await expect(page.getByRole("heading", { name: `${host}-http-latency` })).toBeVisible();
  await expect(page.getByText("This item has no threshold")).toBeVisible();

  // The name is taken now: the server's conflict shows next to the name field.
  await page.goto("/config/hosts");
  await page.getByRole("button", { name: "New host" }).click();
  await page.getByRole("form", { name: "Host" }).getByLabel("Name").fill(host);
  await page.getByRole("form", { name: "Host" }).getByRole("button", { name: "Create host" }).click();
  await expect(page.getByRole("form", { name: "Host" }).getByText("a host with this name already exists")).toBeVisible();

  await page.getByRole("searchbox", { name: "Search hosts" }).fill(host);
  await page.getByRole("link", { name: host, exact: true }).click();
  await page.getByRole("button", { name: "Clone" }).click();
  await page.getByLabel("Name of the copy").fill(`${host}-b`);
  await page.getByRole("button", { name: "Clone host" }).click();
  await expect(page.getByRole("heading", { name: `${host}-b` })).toBeVisible();
  await expect(page.getByRole("link", { name: `${host}-b-http` })).toBeVisible();

  await page.getByRole("button", { name: "Delete host" }).click();
  await expect(page.getByText(`Delete host ${host}-b with all its services`)).toBeVisible();
  await page.getByRole("button", { name: "Yes, delete host" }).click();
  await expect(page).toHaveURL(/\/config\/hosts(\?org=[\w-]+)?$/);
  await page.getByRole("searchbox", { name: "Search hosts" }).fill(host);
  await expect(page.getByRole("link", { name: host, exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: `${host}-b`, exact: true })).toHaveCount(0);
});

test("lists items with filters, sort and keyset pages", async ({ page }) => {
  await page.goto("/config/items");
  const rows = page.getByRole("row");
  await expect(rows.nth(1)).toContainText("api01-http-errorrate");
  await page.getByRole("button", { name: /sort descending/ }).click();
  await expect(rows.nth(1)).toContainText("web08-http-requests");
  await page.getByRole("combobox", { name: "Runs on" }).selectOption("bischeck");
  await expect(page.getByRole("link", { name: "fleet-web-avglatency" })).toBeVisible();
  await expect(rows).toHaveCount(2);
  await page.getByRole("combobox", { name: "Runs on" }).selectOption("");
  await page.getByRole("searchbox", { name: "Search items" }).fill("latency");
  await expect(page.getByRole("link", { name: "web03-http-latency" })).toBeVisible();
  await expect(page.getByRole("link", { name: "db01-postgres-load" })).toHaveCount(0);
});

test("imports the Bischeck example files after a preview, and refuses broken ones with positions", async ({ page }) => {
  // The other project's run (desktop or phone) imported them already: start from before that.
  // (Only its service: the host "localhost" also carries the local agent's own checks.)
  await withDatabase((db) =>
    db.query(
      `DELETE FROM services WHERE name = 'sshport' AND host_id IN
         (SELECT h.id FROM hosts h JOIN organizations o ON o.id = h.organization_id WHERE h.name = 'localhost' AND o.slug = 'acme')`,
    ),
  );
  await page.goto("/import");
  await page.getByLabel("bischeck.xml", { exact: true }).setInputFiles({
    name: "bischeck.xml",
    mimeType: "text/xml",
    buffer: Buffer.from("<bischeck><host><name>x</name><bogus/></host></bischeck>"),
  });
  await page.getByRole("button", { name: "Preview import" }).click();
  const problems = page.getByRole("alert").filter({ hasText: "Nothing can be imported" });
  await expect(problems).toBeVisible();
  await expect(problems.getByRole("row").nth(1)).toContainText(/bischeck\.xml\s*1:\d+/);

  await page.getByLabel("bischeck.xml", { exact: true }).setInputFiles(path.join(BISCHECK_DIR, "bischeck.xml"));
  await page.getByLabel("24thresholds.xml").setInputFiles(path.join(BISCHECK_DIR, "24thresholds.xml"));
  await page.getByRole("button", { name: "Preview import" }).click();
  const preview = page.getByLabel("Import preview");
  await expect(preview).toContainText(/Will create 1 hosts, 1 services, 1 service items and 1 threshold policies/);
  await expect(preview.getByText("localhost", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Confirm import" }).click();
  await expect(page.getByRole("status")).toContainText(/Imported \d new hosts.* 1 services, 1 items and 1 threshold policies/);

  await page.goto("/config/hosts");
  await page.getByRole("searchbox", { name: "Search hosts" }).fill("localhost");
  await page.getByRole("link", { name: "localhost", exact: true }).click();
  await expect(page.getByRole("link", { name: "localhost-sshport" })).toBeVisible();

  // A second import of the same files would add the same service again: refused before anything is written.
  await page.goto("/import");
  await page.getByLabel("bischeck.xml", { exact: true }).setInputFiles(path.join(BISCHECK_DIR, "bischeck.xml"));
  await page.getByRole("button", { name: "Preview import" }).click();
  await expect(page.getByText("These services exist already, so nothing can be imported: localhost-sshport.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Confirm import" })).toBeDisabled();

  await page.goto("/import");
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: /Download bischeck.xml/ }).click();
  expect((await download).suggestedFilename()).toBe("bischeck.xml");
});

test("imports a whole Bischeck directory with a preview of kept, mapped and disabled services", async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), "bischeck-etc-"));
  // A host of its own per run: both projects (desktop, phone) import into the same organisation.
  const host = `dirhost${crypto.randomUUID().slice(0, 8)}`;
  const service = (name: string, url: string, exec: string) =>
    `<service><name>${name}</name><schedule>5M</schedule><url>${url}</url><serviceitem><name>i</name><execstatement>${exec}</execstatement></serviceitem></service>`;
  writeFileSync(
    path.join(dir, "bischeck.xml"),
    `<bischeck><host><name>${host}</name>${service("ping", "shell://localhost", "check_ping")}${service(
      "rows",
      "jdbc:postgresql://db/app?user=mon&amp;password=secret",
      "select 1",
    )}${service("live", "livestatus://monitor:6557", "GET hosts")}</host></bischeck>`,
  );
  writeFileSync(
    path.join(dir, "properties.xml"),
    "<properties><property><key>notFullListParse</key><value>true</value></property></properties>",
  );
  writeFileSync(path.join(dir, "servers.xml"), "<servers/>");

  await page.goto("/import");
  await page.getByLabel("Bischeck directory").setInputFiles(dir);
  await page.getByRole("button", { name: "Preview import" }).click();
  const preview = page.getByLabel("Import preview");
  await expect(preview).toContainText("Will create 1 hosts, 3 services, 3 service items and 0 threshold policies");
  await expect(preview).toContainText("1 kept (run as in Bischeck), 1 mapped (run by another check), 1 disabled (kept, not run)");
  const changed = preview.getByRole("table", { name: "Mapped and disabled services" });
  await expect(changed.getByRole("row", { name: new RegExp(`${host}-rows`) })).toContainText(
    "postgres://mon:***@db/app (was jdbc:postgresql://db/app?user=mon&password=***)",
  );
  await expect(changed.getByRole("row", { name: new RegExp(`${host}-live`) })).toContainText("disabled");
  await expect(preview.getByRole("list", { name: "Files not read" })).toContainText("servers.xml");
  await expect(preview).not.toContainText("secret");
  await page.getByRole("button", { name: "Confirm import" }).click();
  await expect(page.getByRole("status")).toContainText("3 services, 3 items");
});
