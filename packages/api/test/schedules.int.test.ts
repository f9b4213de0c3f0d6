import type { Database } from "@tidemark/db/client";
import type { Role } from "@tidemark/db/organizations";
import { testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInMember } from "./signed-in.ts";

/** Schedules are checked at save with the shared schedule module; the organisation's time zone is a setting. */
let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

const callerFor = (role: Role) => signedInMember(db, role);

const fields = (schedules: string[]) => ({ name: "http", description: "", schedules, url: "https://example.test/", sendServiceData: true });

describe("schedules at save", () => {
  it("refuses a schedule Quartz would refuse, saying where, and saves nothing", async () => {
    const { caller } = await callerFor("editor");
    const host = await caller.config.hosts.create({ name: "web01", alias: null, description: "" });
    await expect(caller.config.services.create({ hostId: host.id, fields: fields(["5M", "0 0 12 * * 2"]) })).rejects.toThrow(
      /0 0 12 \* \* 2.*Quartz needs \? in day-of-month or in day-of-week .*\(at character 8\)/,
    );
    await expect(caller.config.services.create({ hostId: host.id, fields: fields(["0 0 12 ? * 2#6"]) })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect((await caller.config.services.list({ hostId: host.id })).rows).toHaveLength(0);
    const saved = await caller.config.services.create({
      hostId: host.id,
      fields: fields(["0 15 10 ? * 6L", "0 0 8 ? * 2#1", "after:web01-ping"]),
    });
    expect(saved.id).toBeTruthy();
  });
});

describe("the organisation's time zone", () => {
  it("is UTC until an admin sets an IANA zone; anything else is refused", async () => {
    const { caller } = await callerFor("admin");
    expect(await caller.organizations.settings()).toEqual({ timeZone: "UTC" });
    await expect(caller.organizations.setTimeZone({ timeZone: "Mars/Olympus_Mons" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await caller.organizations.setTimeZone({ timeZone: "Europe/Stockholm" });
    expect(await caller.organizations.settings()).toEqual({ timeZone: "Europe/Stockholm" });
    const { caller: editor } = await callerFor("editor");
    await expect(editor.organizations.setTimeZone({ timeZone: "Europe/Stockholm" })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
