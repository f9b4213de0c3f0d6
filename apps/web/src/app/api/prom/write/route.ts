import { getDatabase } from "~/server/database";
import { promWriteResponse } from "./handler";

export const dynamic = "force-dynamic";

/** Prometheus remote write; see ./handler.ts. */
export async function POST(request: Request) {
  return promWriteResponse(await getDatabase(), request);
}
