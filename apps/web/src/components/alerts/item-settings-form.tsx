"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";

/** The item's recovery margin and minimum duration, which decide when its alerts close. */
export function ItemAlertSettingsForm(props: {
  itemId: string;
  settings: { recoveryMarginPercent: number; minimumDurationSeconds: number };
  canEdit: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [margin, setMargin] = useState(String(props.settings.recoveryMarginPercent));
  const [minutes, setMinutes] = useState(String(props.settings.minimumDurationSeconds / 60));
  const save = useMutation(
    trpc.alerts.updateItemSettings.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.alerts.detail.pathKey() }),
    }),
  );
  return (
    <section aria-label="Alert settings of this item">
      <h3>When this item's alerts close</h3>
      <form
        className="tl-inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({
            itemId: props.itemId,
            recoveryMarginPercent: Number(margin),
            minimumDurationSeconds: Math.round(Number(minutes) * 60),
          });
        }}
      >
        <label className="tl-field">
          <span>Recovery margin (% of threshold)</span>
          <input
            type="number"
            min={0}
            max={100}
            step="any"
            value={margin}
            disabled={!props.canEdit}
            onChange={(e) => setMargin(e.target.value)}
          />
        </label>
        <label className="tl-field">
          <span>Recovery must hold (minutes)</span>
          <input
            type="number"
            min={0}
            max={10080}
            step="any"
            value={minutes}
            disabled={!props.canEdit}
            onChange={(e) => setMinutes(e.target.value)}
          />
        </label>
        {props.canEdit && (
          <button type="submit" disabled={save.isPending}>
            Save
          </button>
        )}
      </form>
      {save.isSuccess && <p className="muted">Saved: applies from the next result.</p>}
      {save.error && <p className="error">{save.error.message}</p>}
    </section>
  );
}
