import type { ChecksDiff, FieldChange, ItemEvaluationChange } from "@tidemark/config-render";

const SIGN = { added: "+", removed: "−", changed: "~" } as const;

/** One old → new line; an absent side shows as —. */
export function FieldChangeLine({ change }: { change: FieldChange }) {
  return (
    <li className="deploy-field">
      <span className="muted">{change.field}:</span> <del>{change.before ?? "—"}</del> → <ins>{change.after ?? "—"}</ins>
    </li>
  );
}

function FieldChangeList({ fields }: { fields: FieldChange[] }) {
  return (
    <ul className="deploy-fields">
      {fields.map((f) => (
        <FieldChangeLine key={f.field} change={f} />
      ))}
    </ul>
  );
}

/** What a deploy changes on one agent: each check and each item's command, old → new. */
export function DiffSummary({ diff }: { diff: ChecksDiff }) {
  if (diff.changes.length === 0) return <span className="muted">no change ({diff.unchanged} checks)</span>;
  return (
    <ul className="deploy-diff mono">
      {diff.changes.map((c) => (
        <li key={c.id} className={c.change}>
          {SIGN[c.change]} {c.id}
          <ul className="deploy-fields">
            {c.fields.map((f) => (
              <FieldChangeLine key={f.field} change={f} />
            ))}
            {c.items.map((item) => (
              <li key={item.name}>
                {SIGN[item.change]} item {item.name}
                <FieldChangeList fields={item.fields} />
              </li>
            ))}
          </ul>
        </li>
      ))}
      {diff.unchanged > 0 && <li className="muted">{diff.unchanged} unchanged</li>}
    </ul>
  );
}

/** What the worker will evaluate differently, item by item: thresholds, alert settings, calculations. */
export function EvaluationDiff({ changes }: { changes: ItemEvaluationChange[] }) {
  if (changes.length === 0) return <p className="muted">No threshold, alert setting or calculation changes.</p>;
  return (
    <ul className="deploy-diff mono">
      {changes.map((c) => (
        <li key={c.seriesKey} className={c.change} data-testid={`evaluation-${c.seriesKey}`}>
          {SIGN[c.change]} {c.seriesKey}
          <FieldChangeList fields={c.fields} />
        </li>
      ))}
    </ul>
  );
}
