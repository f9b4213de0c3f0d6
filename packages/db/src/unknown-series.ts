import { type Database, poolOf } from "./database.ts";

/**
 * Of `keys`, those the organisation neither configures (an item's series key) nor has stored
 * points for: what an expression referring to them would read as no data, for ever. The editor
 * flags them at the field.
 */
export async function unknownSeriesKeys(db: Database, organizationId: string, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const { rows } = await poolOf(db).query<{ key: string }>(
    `SELECT k.key FROM unnest($2::text[]) AS k(key)
     WHERE NOT EXISTS (SELECT 1 FROM service_items i WHERE i.organization_id = $1 AND i.series_key = k.key)
       AND NOT EXISTS (SELECT 1 FROM series s WHERE s.organization_id = $1 AND s.key = k.key)
     ORDER BY k.key`,
    [organizationId, [...new Set(keys)]],
  );
  return rows.map((r) => r.key);
}
