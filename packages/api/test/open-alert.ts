import { applyEvaluations } from "@tidemark/db/alerts";
import type { Database } from "@tidemark/db/client";
import { ensureSeries } from "@tidemark/db/metrics";

/** Opens a CRITICAL alert on series `key` of the organisation, a minute ago; answers when. */
export async function openAlert(db: Database, organizationId: string, key: string): Promise<Date> {
  const seriesId = (await ensureSeries(db, organizationId, [key])).get(key) as number;
  const ts = new Date(Date.now() - 60_000);
  await applyEvaluations(db, organizationId, [
    {
      seriesId,
      key,
      ts,
      state: "CRITICAL",
      hardState: "CRITICAL",
      hard: true,
      value: 9,
      threshold: 5,
      warning: 6,
      critical: 7,
      explanation: "CRITICAL 9",
    },
  ]);
  return ts;
}
