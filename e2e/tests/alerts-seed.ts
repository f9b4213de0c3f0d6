/**
 * Real alerts for the browser tests, written the way the worker writes a batch: states, state
 * changes and alerts in one statement (applyEvaluations with the records). Run with tsx (the db layer
 * is TypeScript with the generated Prisma client); prints what it created as JSON, with the
 * moment each series' alert opened. The hosts get a per-run prefix, so that runs never see each
 * other's alerts. The db01 series is also a configured service item, so its alert links to the
 * item's threshold preview.
 */
import type { EvaluationOutcome } from "@tidemark/alerts";
import { hardOutcome } from "@tidemark/alerts/testing";
import { applyEvaluations } from "@tidemark/db/alerts";
import { connectDatabase } from "@tidemark/db/client";
import { mergeConfiguration } from "@tidemark/db/configuration";
import { ensureSeries } from "@tidemark/db/metrics";
import { findOrganizationBySlug, oldestMember } from "@tidemark/db/organizations";
import { evaluationRecords } from "@tidemark/db/testing";
import type { State } from "@tidemark/thresholds";

const url = process.env.DATABASE_URL;
const prefix = process.argv[2];
if (!url || !prefix || !/^[a-z0-9]+$/.test(prefix)) throw new Error("usage: DATABASE_URL=… tsx alerts-seed.ts <lowercase prefix>");

const MINUTE = 60_000;
const LETTERS: Record<string, State> = { O: "OK", W: "WARNING", C: "CRITICAL" };

const db = await connectDatabase(url, { max: 2, applicationName: "tidemark-e2e-seed" });
try {
  const org = await findOrganizationBySlug(db, "acme");
  if (!org) throw new Error("no demo organisation (acme)");
  const plan = [
    // Opened as WARNING 50 minutes ago, CRITICAL since minute 3: still open.
    { key: `${prefix}web01-http-latency`, start: Date.now() - 50 * MINUTE, script: "OWWWCCCCCC" },
    // A CRITICAL hour, two to three hours ago: closed.
    { key: `${prefix}db01-pg-lag`, start: Date.now() - 3 * 3_600_000, script: `OC${"C".repeat(58)}OOO` },
    // Alternating results four hours ago: flapping.
    { key: `${prefix}cache01-redis-hits`, start: Date.now() - 4 * 3_600_000, script: `${"CO".repeat(6)}${"CW".repeat(8)}` },
  ];
  const ids = await ensureSeries(
    db,
    org.id,
    plan.map((p) => p.key),
  );
  const outcomes: EvaluationOutcome[] = plan.flatMap((p) =>
    [...p.script].map((ch, i) => hardOutcome(ids.get(p.key) as number, p.key, p.start + i * MINUTE, LETTERS[ch] as State)),
  );
  const summary = await applyEvaluations(db, org.id, outcomes, { records: evaluationRecords(outcomes) });
  const admin = await oldestMember(db, org.id, { roles: ["admin"] });
  if (!admin) throw new Error("the demo organisation has no admin");
  await mergeConfiguration(
    db,
    { organizationId: org.id, userId: admin.userId },
    {
      hosts: [
        {
          name: `${prefix}db01`,
          alias: null,
          description: "",
          services: [
            {
              name: "pg",
              description: "",
              schedules: ["1M"],
              url: "shell://localhost",
              sendServiceData: true,
              items: [
                {
                  name: "lag",
                  description: "",
                  execStatement: "check_pg_lag",
                  thresholdClass: null,
                  serviceItemClass: null,
                  cacheMaxCount: null,
                  policy: null,
                },
              ],
            },
          ],
        },
      ],
    },
  );
  // The first non-OK result opens the alert.
  const opened = Object.fromEntries(
    plan.map((p) => [p.key, new Date(p.start + [...p.script].findIndex((ch) => ch !== "O") * MINUTE).toISOString()]),
  );
  process.stdout.write(`${JSON.stringify({ keys: plan.map((p) => p.key), opened, summary })}\n`);
} finally {
  await db.close();
}
