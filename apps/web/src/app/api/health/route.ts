import { databaseInfo } from "@tidemark/db";
import { getDatabase } from "~/server/database";

export const dynamic = "force-dynamic";

/** Liveness and what the database is, for people, load balancers and the start script. */
export async function GET() {
  try {
    const db = await getDatabase();
    const [info, migrations] = await Promise.all([
      databaseInfo(db.pool),
      db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`),
    ]);
    return Response.json({
      status: "ok",
      database: {
        reachable: true,
        kind: info.kind,
        timescaledb: info.timescaleVersion,
        postgresql: info.serverVersion,
        migrations: migrations.rows[0]?.n ?? 0,
      },
    });
  } catch (error) {
    return Response.json(
      { status: "error", database: { reachable: false, error: error instanceof Error ? error.message : String(error) } },
      { status: 503 },
    );
  }
}
