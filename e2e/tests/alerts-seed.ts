/**
 * Real alerts for the browser tests, made the way the worker makes them: state changes written
 * with writeEvaluations, then the results handed to applyEvaluations. Run with tsx (the db layer
 * is TypeScript with the generated Prisma client); prints what it created as JSON, with the
 * moment each series' alert opened. The hosts get a per-run prefix, so that runs never see each
 * other's alerts. The db01 series is also a configured service item, so its alert links to the
 * item's threshold preview.
 */
import type { EvaluationOutcome } from "@tidemark/alerts";
import { hardOutcome } from "@tidemark/alerts/testing";
import { applyEvaluations, connectDatabase, ensureSeries, mergeConfiguration, writeEvaluations } from "@tidemark/db";
import type { State } from "@tidemark/thresholds";

const url = process.env.DATABASE_URL;
const prefix = process.argv[2];
if (!url || !prefix || !/^[a-z0-9]+$/.test(prefix)) throw new Error("usage: DATABASE_URL=… tsx alerts-seed.ts <lowercase prefix>");

const MINUTE = 60_000;
const LETTERS: Record<string, State> = { O: "OK", W: "WARNING", C: "CRITICAL" };

const db = await connectDatabase(url, { max: 2, applicationName: "tidemark-e2e-seed" });
try {
  const org = await db.prisma.organization.findUniqueOrThrow({ where: { slug: "acme" } });
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
  const client = await db.pool.connect();
  try {
    await client.query("BEGIN");
    await writeEvaluations(
      client,
      outcomes.map((o, i) => ({
        ...o,
        ts: o.ts.getTime(),
        softCount: 1,
        changed: i === 0 || outcomes[i - 1]?.seriesId !== o.seriesId || outcomes[i - 1]?.state !== o.state,
      })),
    );
    const summary = await applyEvaluations(client, org.id, outcomes);
    await client.query("COMMIT");
    const admin = await db.prisma.membership.findFirstOrThrow({ where: { organizationId: org.id, role: "admin" } });
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
    client.release();
  }
} finally {
  await db.close();
}
