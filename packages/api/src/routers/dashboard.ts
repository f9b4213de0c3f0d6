import { configurationOverview, listItemsWithLastValues } from "@tidemark/db/configuration";
import { BOARD_STATES, countBoardStates, findSeries, listBoard, readSeriesWindow } from "@tidemark/db/metrics";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { sharedRead } from "../shared-reads.ts";
import { createTRPCRouter, viewerProcedure } from "../trpc.ts";

export const dashboardRouter = createTRPCRouter({
  // The dashboard's polled reads are shared by an organisation's callers for a second (shared-reads.ts).
  overview: viewerProcedure.query(({ ctx }) =>
    sharedRead(ctx, "dashboard.overview", null, async () => {
      const [overview, board] = await Promise.all([configurationOverview(ctx.db, ctx.org.id), countBoardStates(ctx.db, ctx.org.id)]);
      // The kind of database is read once per process, when it connects: no query per call.
      return { ...overview, database: ctx.db.info, board };
    }),
  ),
  /** The overview's table: problems first (or by key), filtered by state, with last value, its time and a 24 h sparkline. */
  board: viewerProcedure
    .input(
      z.object({
        search: z.string().trim().max(200).optional(),
        states: z.array(z.enum(BOARD_STATES)).max(BOARD_STATES.length).default([]),
        sort: z.enum(["state", "key"]).default("state"),
        after: z.string().max(600).nullish(),
        limit: z.number().int().min(1).max(100).default(25),
      }),
    )
    .query(({ ctx, input }) =>
      sharedRead(ctx, "dashboard.board", input, () => listBoard(ctx.db, ctx.org.id, { ...input, now: new Date() })),
    ),
  items: viewerProcedure
    .input(
      z.object({
        search: z.string().trim().max(200).optional(),
        after: z.string().max(400).nullish(),
        limit: z.number().int().min(1).max(200).default(50),
      }),
    )
    .query(({ ctx, input }) => sharedRead(ctx, "dashboard.items", input, () => listItemsWithLastValues(ctx.db, ctx.org.id, input))),
  series: viewerProcedure
    .input(
      z
        .object({ seriesId: z.number().int().positive(), from: z.date(), to: z.date() })
        .refine((v) => v.from < v.to, "from must be before to")
        .refine((v) => v.to.getTime() - v.from.getTime() <= 400 * 86_400_000, "at most 400 days"),
    )
    .query(async ({ ctx, input }) => {
      const owned = await findSeries(ctx.db, ctx.org.id, input.seriesId);
      if (!owned) throw new TRPCError({ code: "NOT_FOUND", message: "no such series in this organisation" });
      // With the series' last point time, so that a client can show how old the newest value is.
      return { ...(await readSeriesWindow(ctx.db, ctx.org.id, input.seriesId, input.from, input.to)), lastSeenAt: owned.lastTs };
    }),
});
