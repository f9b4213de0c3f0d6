import type { ChecksDiff } from "@tidemark/config-render";

/** What a deploy changes on one agent, check by check. */
export function DiffSummary({ diff }: { diff: ChecksDiff }) {
  if (diff.added.length + diff.removed.length + diff.changed.length === 0)
    return <span className="muted">no change ({diff.unchanged} checks)</span>;
  return (
    <ul className="deploy-diff mono">
      {diff.added.map((id) => (
        <li key={`+${id}`} className="added">
          + {id}
        </li>
      ))}
      {diff.removed.map((id) => (
        <li key={`-${id}`} className="removed">
          − {id}
        </li>
      ))}
      {diff.changed.map((c) => (
        <li key={`~${c.id}`} className="changed">
          ~ {c.id}: {c.fields.join(", ")}
          {c.itemsAdded.length > 0 && ` (+${c.itemsAdded.join(", +")})`}
          {c.itemsRemoved.length > 0 && ` (−${c.itemsRemoved.join(", −")})`}
          {c.itemsChanged.length > 0 && ` (~${c.itemsChanged.join(", ~")})`}
        </li>
      ))}
      {diff.unchanged > 0 && <li className="muted">{diff.unchanged} unchanged</li>}
    </ul>
  );
}
