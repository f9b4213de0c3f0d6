import { configurationSchema } from "@tidemark/model";
import { z } from "zod";
import { canonicalHash } from "./canonical.ts";

/**
 * What a deployment freezes: the organisation's whole configuration plus which agent runs which
 * service. The assignment is part of the snapshot so that rolling back to a version also rolls
 * back moves of services between agents.
 */
export const serviceAssignmentSchema = z.object({
  host: z.string().min(1),
  service: z.string().min(1),
  agentId: z.string().min(1),
});
export type ServiceAssignment = z.infer<typeof serviceAssignmentSchema>;

export const deploymentSnapshotSchema = z.object({
  configuration: configurationSchema,
  assignments: z.array(serviceAssignmentSchema),
});
export type DeploymentSnapshot = z.infer<typeof deploymentSnapshotSchema>;

/** Hash of a snapshot, independent of the order hosts, services, items and assignments were listed in. */
export function snapshotHash(snapshot: DeploymentSnapshot): string {
  const byName = <T extends { name: string }>(list: readonly T[]) =>
    [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const hosts = byName(snapshot.configuration.hosts).map((h) => ({
    ...h,
    services: byName(h.services).map((s) => ({ ...s, items: byName(s.items) })),
  }));
  const assignments = [...snapshot.assignments].map((a) => `${a.host}\u0000${a.service}\u0000${a.agentId}`).sort();
  return canonicalHash({ hosts, assignments });
}
