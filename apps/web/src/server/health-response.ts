import { type Database, databaseInfo } from "@tidemark/db";

/** `GET /api/health`: liveness and what the database is, for people, load balancers and the start script. */
export async function healthResponse(db: Database): Promise<Response> {
  const [info, migrations] = await Promise.all([
    databaseInfo(db.pool),
    db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    ),
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
}
