/**
 * `npm run import:bischeck -- DIR [--commit --org SLUG [--user EMAIL]]`: import a Bischeck
 * configuration directory (bischeck.xml, 24thresholds.xml; servers.xml and the rest are named and
 * skipped). Without --commit it prints the preview — what is kept, mapped and disabled, and every
 * warning — and writes nothing. With --commit it merges the configuration into the organisation
 * SLUG of DATABASE_URL as the given admin or editor (the first admin when --user is left out),
 * all or nothing, exactly as the web import does.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BischeckImportError, filesFromDirectory, formatPreview, importBischeck, importPreview } from "@tidemark/bischeck";
import { connectDatabase } from "@tidemark/db/client";
import { ConfigConflictError, mergeConfiguration } from "@tidemark/db/configuration";
import { findOrganizationBySlug, oldestMember } from "@tidemark/db/organizations";
import { fail, say } from "./lib/log.ts";

const USAGE = "usage: npm run import:bischeck -- DIR [--commit --org SLUG [--user EMAIL]]";
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { commit: { type: "boolean", default: false }, org: { type: "string" }, user: { type: "string" } },
});
const dir = positionals[0];
if (dir === undefined || positionals.length > 1) fail(USAGE);
if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) fail(`${dir} is not a directory\n${USAGE}`);

const entries = readdirSync(dir)
  .filter((name) => name.endsWith(".xml") && statSync(join(dir, name)).isFile())
  .map((name) => ({ name, text: readFileSync(join(dir, name), "utf8") }));
const { files, notes } = filesFromDirectory(entries);
if (files === null) fail(`${dir} has no bischeck.xml`);

let result: ReturnType<typeof importBischeck>;
try {
  result = importBischeck(files);
} catch (error) {
  if (!(error instanceof BischeckImportError)) throw error;
  fail(`nothing imported, ${error.issues.length} problem(s):\n${error.message}`);
}
process.stdout.write(`${formatPreview(result, importPreview(result), notes)}\n`);

if (values.commit) {
  const url = process.env.DATABASE_URL;
  if (!url) fail("--commit needs DATABASE_URL");
  if (!values.org) fail(`--commit needs --org SLUG\n${USAGE}`);
  const db = await connectDatabase(url, { max: 2, applicationName: "tidemark-import-bischeck" });
  try {
    const org = await findOrganizationBySlug(db, values.org);
    if (!org) fail(`no organisation with the slug ${values.org}`);
    const member = await oldestMember(db, org.id, { roles: values.user ? ["admin", "editor"] : ["admin"], email: values.user });
    if (!member) fail(values.user ? `${values.user} is not an admin or editor of ${values.org}` : `${values.org} has no admin`);
    const summary = await mergeConfiguration(db, { organizationId: org.id, userId: member.userId }, result.configuration);
    say(`imported into ${values.org}: ${JSON.stringify(summary)}`);
  } catch (error) {
    if (error instanceof ConfigConflictError) fail(error.message);
    throw error;
  } finally {
    await db.close();
  }
} else {
  say("preview only: nothing written (add --commit --org SLUG to import)");
}
