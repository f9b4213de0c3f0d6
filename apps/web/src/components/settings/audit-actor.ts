/** Who made an audit entry's change, as the audit page says it. */
export function auditActorLabel(entry: { actorKind: string; actorName: string | null; actorUserName: string | null }): string {
  const person = entry.actorUserName ?? "a former member";
  switch (entry.actorKind) {
    case "user":
      return person;
    case "api-token":
      return `API token ${entry.actorName ?? "(unnamed)"} of ${person}`;
    case "agent":
      return `agent ${entry.actorName ?? "(unnamed)"}`;
    case "system":
      return entry.actorName ? `system: ${entry.actorName}` : "system";
    default:
      return entry.actorName ?? entry.actorKind;
  }
}
