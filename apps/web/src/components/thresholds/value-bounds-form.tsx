"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { NumberField } from "./number-field";

type Bounds = { min: number | null; max: number | null };

/**
 * The physical bounds of the item's values (a percentage lives in 0–100, a count never goes below
 * 0): declared once here, every threshold suggestion for the item keeps its lines inside them.
 * Both ends empty: not declared, the suggestion detects them from the history.
 */
export function ValueBoundsForm({ itemId }: { itemId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const saved = useQuery(trpc.thresholds.valueBounds.queryOptions({ itemId }));
  if (!saved.data) return saved.isError ? <p className="error">{saved.error.message}</p> : null;
  return (
    <BoundsFields
      key={`${saved.data.min}:${saved.data.max}`}
      initial={saved.data}
      itemId={itemId}
      onSaved={() => queryClient.invalidateQueries({ queryKey: trpc.thresholds.valueBounds.queryKey({ itemId }) })}
    />
  );
}

const KINDS: { label: string; bounds: Bounds }[] = [
  { label: "a percentage (0–100)", bounds: { min: 0, max: 100 } },
  { label: "never negative (counts, rates)", bounds: { min: 0, max: null } },
  { label: "not declared", bounds: { min: null, max: null } },
];

function BoundsFields({ itemId, initial, onSaved }: { itemId: string; initial: Bounds; onSaved: () => void }) {
  const trpc = useTRPC();
  const [min, setMin] = useState<number | null>(initial.min);
  const [max, setMax] = useState<number | null>(initial.max);
  const save = useMutation(trpc.thresholds.setValueBounds.mutationOptions({ onSuccess: onSaved }));
  const changed = min !== initial.min || max !== initial.max;
  return (
    <form
      className="value-bounds-form"
      aria-label="Value bounds"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ itemId, bounds: { min, max } });
      }}
    >
      <p className="muted">Values this item can take; suggested thresholds stay inside them. Empty: detected from the history.</p>
      {/* biome-ignore lint/a11y/noLabelWithoutControl: NumberField renders the input */}
      <label>
        from <NumberField className="narrow" label="Lowest possible value" value={min} onChange={setMin} />
      </label>{" "}
      {/* biome-ignore lint/a11y/noLabelWithoutControl: NumberField renders the input */}
      <label>
        to <NumberField className="narrow" label="Highest possible value" value={max} onChange={setMax} />
      </label>{" "}
      <select
        aria-label="Kind of values"
        value=""
        onChange={(e) => {
          const kind = KINDS[Number(e.target.value)];
          if (!kind) return;
          setMin(kind.bounds.min);
          setMax(kind.bounds.max);
        }}
      >
        <option value="">kind…</option>
        {KINDS.map((k, i) => (
          <option key={k.label} value={i}>
            {k.label}
          </option>
        ))}
      </select>{" "}
      <button type="submit" disabled={!changed || save.isPending}>
        Save bounds
      </button>
      {save.isError && <p className="error">{save.error.message}</p>}
    </form>
  );
}
