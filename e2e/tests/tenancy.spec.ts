import { randomUUID } from "node:crypto";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { createInvitationLink, openMenu, signIn } from "./fixtures";

/**
 * Tenancy end to end: a user with an organisation of their own is invited into the demo
 * organisation, accepts, and switching organisation switches everything they see.
 */

async function newPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

async function overviewCard(page: Page, label: string) {
  return page.getByRole("region", { name: "Overview" }).locator(".card", { hasText: label }).locator(".card-value");
}

test("invite a user, accept, switch organisation and see only that organisation's data", async ({ page: admin, browser, baseURL }) => {
  const mark = randomUUID().slice(0, 8);
  const email = `tenant-${mark}@example.test`;
  const ownOrganization = `Globex ${mark}`;

  // A newcomer finds the sign-up from the sign-in page, with an organisation of their own: it is empty.
  const newcomer = await newPage(browser, baseURL);
  await newcomer.goto("/sign-in");
  await newcomer.getByRole("link", { name: "Create an account" }).click();
  await expect(newcomer).toHaveURL(/\/sign-up$/);
  await newcomer.getByLabel("Your name").fill(`Newcomer ${mark}`);
  await newcomer.getByLabel("Email").fill(email);
  await newcomer.getByLabel("Password").fill("correct horse battery");
  await newcomer.getByLabel("Organisation").fill(ownOrganization);
  await newcomer.getByRole("button", { name: "Create account" }).click();
  await expect(newcomer.getByText(`${ownOrganization} · admin`)).toBeVisible();
  await expect(await overviewCard(newcomer, "Hosts")).toHaveText("0");
  // The first run shows three ways in; connecting an agent gives the command with its token.
  const doors = newcomer.getByRole("region", { name: "Nothing monitored here yet" });
  await expect(doors.getByRole("link", { name: "Import bischeck.xml" })).toBeVisible();
  await expect(doors.getByRole("link", { name: "Add a host" })).toBeVisible();
  await doors.getByRole("button", { name: "Create its token" }).click();
  await expect(doors.getByTestId("agent-command")).toContainText(/TIDEMARK_AGENT_TOKEN=tm_\w+/);

  // The demo admin invites them as an editor; the link is shown once.
  await signIn(admin);
  await openMenu(admin);
  await admin.getByRole("link", { name: "Settings" }).click();
  await expect(admin).toHaveURL(/\/settings\/members(\?org=[\w-]+)?$/);
  const link = await createInvitationLink(admin, email, "editor");
  expect(link).toMatch(/\/invite\/tm_invite_/);
  await expect(admin.getByRole("region", { name: "Invitations" }).getByRole("row", { name: new RegExp(email) })).toContainText("pending");

  // Signed in as the invited address, the newcomer joins with one click.
  await newcomer.goto(new URL(link).pathname);
  await expect(newcomer.getByText("Acme Operations", { exact: true })).toBeVisible();
  await newcomer.getByRole("button", { name: "Join the organisation" }).click();
  await expect(newcomer.getByText("Acme Operations · editor")).toBeVisible();
  await newcomer.getByRole("searchbox", { name: "Search service items" }).fill("web03-http-latency");
  await expect(newcomer.getByRole("row", { name: /web03-http-latency/ })).toBeVisible();
  // Editors do not see the admin settings.
  await expect(newcomer.getByRole("link", { name: "Settings" })).toHaveCount(0);

  // Switching back to their own organisation shows none of Acme's data.
  await openMenu(newcomer);
  await newcomer.getByRole("combobox", { name: "Organisation" }).selectOption({ label: `${ownOrganization} (admin)` });
  await expect(newcomer.getByText(`${ownOrganization} · admin`)).toBeVisible();
  await expect(await overviewCard(newcomer, "Hosts")).toHaveText("0");
  await expect(newcomer.getByRole("row", { name: /web03/ })).toHaveCount(0);
  const hosts = await newcomer.request.get(
    `/api/trpc/config.hosts.list?input=${encodeURIComponent(JSON.stringify({ json: { limit: 200 } }))}`,
  );
  expect(hosts.ok()).toBe(true);
  expect(await hosts.text()).not.toContain("web03");
  // An agent of their own organisation cannot write into Acme's series of the same name.
  const agent = await newcomer.request.post("/api/trpc/agents.create", {
    data: { json: { name: `agent-${mark}` } },
    headers: { origin: new URL(newcomer.url()).origin },
  });
  expect(agent.ok()).toBe(true);
  const agentToken = (await agent.json()).result.data.json.token as string;
  const ingested = await newcomer.request.post("/api/ingest", {
    headers: { authorization: `Bearer ${agentToken}` },
    data: { batchId: `tenancy-${mark}`, results: [{ key: "web03-http-latency", ts: Date.now() - 1000, value: 1 }] },
  });
  expect(await ingested.json()).toMatchObject({ accepted: 0, unknownSeries: ["web03-http-latency"] });

  // The admin sees the new member and the acceptance in the audit log.
  await admin.reload();
  await expect(admin.getByRole("region", { name: "Members" }).getByRole("row", { name: new RegExp(email) })).toBeVisible();
  await admin.getByRole("link", { name: "Audit log" }).click();
  await admin.getByLabel("Action").selectOption("invitation.accept");
  await expect(admin.getByTestId("audit-row").first()).toContainText(`Newcomer ${mark}`);

  // The organisation is in every URL: a link into Acme, opened while working in their own, offers the switch.
  await expect(admin).toHaveURL(/[?&]org=acme\b/);
  await newcomer.goto("/?org=acme");
  await newcomer.getByRole("button", { name: "Switch to Acme Operations" }).click();
  await expect(newcomer.getByText("Acme Operations · editor")).toBeVisible();
  // One they are not in is a plain "not found".
  await newcomer.goto("/?org=no-such-organisation");
  await expect(newcomer.getByRole("alert").filter({ hasText: "Not found" })).toHaveText(
    /Not found: this link is for an organisation you are not a member of/,
  );
});

test("an invitation link opened signed out creates the invited account and joins", async ({ page: admin, browser, baseURL }) => {
  const mark = randomUUID().slice(0, 8);
  const email = `invitee-${mark}@example.test`;
  await signIn(admin);
  await admin.goto("/settings/members");
  const link = await createInvitationLink(admin, email);

  const invitee = await newPage(browser, baseURL);
  await invitee.goto(new URL(link).pathname);
  await expect(invitee.getByLabel("Email")).toHaveValue(email);
  await invitee.getByLabel("Your name").fill(`Invitee ${mark}`);
  await invitee.getByLabel("Password").fill("another long password");
  await invitee.getByRole("button", { name: "Create account and join" }).click();
  await expect(invitee.getByText("Acme Operations · viewer")).toBeVisible();
  await expect(invitee.getByRole("link", { name: "Settings" })).toHaveCount(0);
  // A viewer browses the items but is offered no selection to change their thresholds.
  await invitee.goto("/config/items");
  await expect(invitee.locator("table.table tbody tr").first()).toBeVisible();
  await expect(invitee.getByRole("checkbox", { name: /^Select / })).toHaveCount(0);
  // Their item editor is read only and says why, before they try to save.
  await invitee.locator("table.table tbody tr a").first().click();
  const editor = invitee.getByRole("region", { name: "Threshold editor" });
  await expect(editor.getByRole("note")).toContainText("Read only. You are a viewer in Acme Operations");
  await expect(editor.getByRole("button", { name: "Save threshold" })).toHaveCount(0);

  // The link worked once.
  const again = await newPage(browser, baseURL);
  await again.goto(new URL(link).pathname);
  await expect(again.locator(".auth-card").getByRole("alert")).toHaveText("This invitation link is unknown, already used or expired.");
});

test("sign-in is rate limited, cross-site mutations are refused, API tokens work as bearer", async ({ page, request }) => {
  const mark = randomUUID().slice(0, 8);
  const guess = { email: `nobody-${mark}@example.test`, password: "guess" };
  const headers = { "x-forwarded-for": `198.51.100.${Number.parseInt(mark.slice(0, 2), 16)}` };
  for (let i = 0; i < 10; i++) expect((await request.post("/api/auth/sign-in", { data: guess, headers })).status()).toBe(401);
  const limited = await request.post("/api/auth/sign-in", { data: guess, headers });
  expect(limited.status()).toBe(429);
  expect(Number(limited.headers()["retry-after"])).toBeGreaterThan(0);
  expect((await limited.json()).error).toMatch(/too many sign-in attempts/);

  await signIn(page);
  const cookie = (await page.context().cookies()).find((c) => c.name === "tm_session");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  const mutation = (origin: string) =>
    page.request.post("/api/trpc/tokens.create", { data: { json: { name: `e2e ${mark}`, role: "viewer" } }, headers: { origin } });
  const crossSite = await mutation("https://evil.example");
  expect(crossSite.status()).toBe(403);
  expect(await crossSite.text()).toContain("cross-site request refused");

  const created = await mutation(new URL(page.url()).origin);
  expect(created.ok()).toBe(true);
  const secret = (await created.json()).result.data.json.secret as string;
  const bearer = { authorization: `Bearer ${secret}` };
  const overview = await request.get("/api/trpc/dashboard.overview", { headers: bearer });
  expect(overview.ok()).toBe(true);
  expect((await overview.json()).result.data.json.hosts).toBeGreaterThan(0);
  const write = await request.post("/api/trpc/config.hosts.create", {
    headers: bearer,
    data: { json: { name: `api${mark}`, alias: null, description: "" } },
  });
  expect(write.status()).toBe(403);
  expect(await write.text()).toContain("needs the editor role");
  expect((await request.get("/api/trpc/dashboard.overview", { headers: { authorization: "Bearer tm_api_unknown" } })).status()).toBe(401);
});
