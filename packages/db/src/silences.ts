import type { SilenceMatchers } from "@tidemark/alerts";
import { type Audited, recordAudited } from "./audit.ts";
import { type Database, prismaOf } from "./database.ts";

export interface SilenceView {
  id: string;
  matchers: SilenceMatchers;
  startsAt: Date;
  endsAt: Date;
  comment: string;
  createdBy: string | null;
  createdByName: string | null;
  createdAt: Date;
}

export interface NewSilence {
  matchers: SilenceMatchers;
  startsAt: Date;
  endsAt: Date;
  comment: string;
}

type SilenceRow = Omit<SilenceView, "matchers" | "createdByName"> & { matchers: unknown; createdByName?: string | null };

function view(row: SilenceRow, createdByName: string | null = null): SilenceView {
  return { ...row, matchers: row.matchers as SilenceMatchers, createdByName };
}

export async function createSilence(
  db: Database,
  organizationId: string,
  userId: string | null,
  silence: NewSilence,
  audit?: Audited<SilenceView>,
): Promise<SilenceView> {
  return prismaOf(db).$transaction(async (tx) => {
    const row = await tx.silence.create({
      data: {
        organizationId,
        matchers: silence.matchers,
        startsAt: silence.startsAt,
        endsAt: silence.endsAt,
        comment: silence.comment,
        createdBy: userId,
      },
    });
    const created = view(row);
    await recordAudited(tx, audit, created);
    return created;
  });
}

/** Active and upcoming silences first (by end), then, when asked, the expired ones. */
export async function listSilences(
  db: Database,
  organizationId: string,
  opts: { includeExpired: boolean; now?: Date },
): Promise<SilenceView[]> {
  const now = opts.now ?? new Date();
  const rows = await prismaOf(db).silence.findMany({
    where: { organizationId, ...(opts.includeExpired ? {} : { endsAt: { gt: now } }) },
    orderBy: [{ endsAt: "desc" }],
    take: 500,
  });
  const userIds = [...new Set(rows.map((r) => r.createdBy).filter((id): id is string => id !== null))];
  const users = userIds.length
    ? await prismaOf(db).user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true } })
    : [];
  const names = new Map(users.map((u) => [u.id, u.name]));
  return rows.map((r) => view(r, r.createdBy ? (names.get(r.createdBy) ?? null) : null));
}

/** Ends a silence now; null when it is not this organisation's or has already ended. */
export async function expireSilence(
  db: Database,
  organizationId: string,
  silenceId: string,
  now = new Date(),
  audit?: Audited<{ before: SilenceView; after: SilenceView }>,
): Promise<{ before: SilenceView; after: SilenceView } | null> {
  return prismaOf(db).$transaction(async (tx) => {
    const before = await tx.silence.findFirst({ where: { id: silenceId, organizationId, endsAt: { gt: now } } });
    if (!before) return null;
    // Never let the end precede the start: a silence that has not begun yet ends where it starts.
    const endsAt = before.startsAt > now ? before.startsAt : now;
    const after = await tx.silence.update({ where: { id: before.id }, data: { endsAt } });
    const expired = { before: view(before), after: view(after) };
    await recordAudited(tx, audit, expired);
    return expired;
  });
}
