import { appliedMigrationCount, currentDatabaseInfo, type Database } from "@tidemark/db/client";

/** `GET /api/health`: liveness and what the database is, for people, load balancers and the start script. */
export async function healthResponse(db: Database): Promise<Response> {
  const [info, migrations] = await Promise.all([currentDatabaseInfo(db), appliedMigrationCount(db)]);
  return Response.json({
    status: "ok",
    database: {
      reachable: true,
      kind: info.kind,
      timescaledb: info.timescaleVersion,
      postgresql: info.serverVersion,
      migrations,
    },
  });
}
