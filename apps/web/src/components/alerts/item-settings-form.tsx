"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";

const STATE_SOURCE_LABELS = {
  worst: "the worse of threshold and plugin",
  threshold: "the threshold only (Bischeck)",
  plugin: "the plugin's exit code (Nagios)",
} as const;

/** The item's recovery margin and minimum duration (when its alerts close), where its state comes from, and when it is stale. */
export function ItemAlertSettingsForm(props: {
  itemId: string;
  settings: {
    recoveryMarginPercent: number;
    minimumDurationSeconds: number;
    stateSource: keyof typeof STATE_SOURCE_LABELS;
    staleAfterIntervals: number;
  };
  canEdit: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [margin, setMargin] = useState(String(props.settings.recoveryMarginPercent));
  const [minutes, setMinutes] = useState(String(props.settings.minimumDurationSeconds / 60));
  const [stateSource, setStateSource] = useState(props.settings.stateSource);
  const [staleAfter, setStaleAfter] = useState(String(props.settings.staleAfterIntervals));
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
            stateSource,
            staleAfterIntervals: Math.round(Number(staleAfter)),
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
        <label className="tl-field">
          <span>State from</span>
          <select
            value={stateSource}
            disabled={!props.canEdit}
            onChange={(e) => setStateSource(e.target.value as keyof typeof STATE_SOURCE_LABELS)}
          >
            {Object.entries(STATE_SOURCE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="tl-field">
          <span>Stale after (intervals without data)</span>
          <input
            type="number"
            min={1}
            max={1000}
            step={1}
            value={staleAfter}
            disabled={!props.canEdit}
            onChange={(e) => setStaleAfter(e.target.value)}
          />
        </label>
        {props.canEdit && (
          <button type="submit" disabled={save.isPending}>
            Save
          </button>
        )}
      </form>
      {save.isSuccess && <p className="muted">Saved as a draft: the worker uses it once deployed (Deploy page).</p>}
      {save.error && <p className="error">{save.error.message}</p>}
    </section>
  );
}
