import { type AuditActor, actorFields, recordAudit } from "./audit.ts";
import { type Database, prismaOf } from "./database.ts";
import { ConfigNotFoundError } from "./draft-configuration.ts";

/**
 * An item's declared physical bounds (the values it can take, e.g. 0..100 for a percentage):
 * read by threshold suggestions, set in the threshold editor. A null end is not declared.
 */
export interface ItemValueBounds {
  min: number | null;
  max: number | null;
}

export async function getItemValueBounds(db: Database, organizationId: string, itemId: string): Promise<ItemValueBounds> {
  const item = await prismaOf(db).serviceItem.findFirst({
    where: { id: itemId, organizationId },
    select: { valueMin: true, valueMax: true },
  });
  if (!item) throw new ConfigNotFoundError("no such item");
  return { min: item.valueMin, max: item.valueMax };
}

/** Stores the bounds (validated by the caller: min below max) and audits the change. */
export async function setItemValueBounds(
  db: Database,
  actor: AuditActor,
  itemId: string,
  bounds: ItemValueBounds,
): Promise<ItemValueBounds> {
  return prismaOf(db).$transaction(async (tx) => {
    const before = await tx.serviceItem.findFirst({
      where: { id: itemId, organizationId: actor.organizationId },
      select: { valueMin: true, valueMax: true },
    });
    if (!before) throw new ConfigNotFoundError("no such item");
    await tx.serviceItem.update({ where: { id: itemId }, data: { valueMin: bounds.min, valueMax: bounds.max } });
    await recordAudit(tx, {
      ...actorFields(actor),
      action: "item.valueBounds",
      targetType: "item",
      targetId: itemId,
      before: { min: before.valueMin, max: before.valueMax },
      after: bounds,
    });
    return bounds;
  });
}
