"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { seriesMappingQuery, seriesMappingSchema } from "@tidemark/prometheus/series-mapping";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import "./settings.css";

const LABEL_RULE = "a label name: letters, digits and _, not starting with a digit";

/**
 * Prometheus remote write for the organisation: whether series seen for the first time become
 * hosts, services and items (the organisation's setting), and the label mapping, which each
 * remote_write block chooses in its URL (so the panel writes that block).
 */
export function PrometheusPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.prometheus.settings.queryOptions());
  // The box follows the click at once; a refusal puts it back to what the server holds.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const save = useMutation(
    trpc.prometheus.setCreatesSeries.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.prometheus.settings.queryKey() }),
      onError: () => setChosen(null),
    }),
  );
  const [hostLabel, setHostLabel] = useState("instance");
  const [serviceLabel, setServiceLabel] = useState("job");
  const [copied, setCopied] = useState(false);
  const mapping = seriesMappingSchema.safeParse({ hostLabel, serviceLabel });
  const problems = new Map(mapping.success ? [] : mapping.error.issues.map((i) => [String(i.path[0]), LABEL_RULE]));
  const origin = typeof window === "undefined" ? "https://tidemark.example" : window.location.origin;
  const block = mapping.success
    ? `remote_write:\n  - url: ${origin}/api/prom/write${seriesMappingQuery(mapping.data)}\n    authorization:\n      credentials: tm_agent_…  # an agent's token, or an editor's API token`
    : null;

  return (
    <section className="panel" aria-label="Prometheus remote write">
      <h2>Prometheus remote write</h2>
      <label className="settings-check">
        <input
          type="checkbox"
          checked={chosen ?? settings.data?.createsSeries ?? false}
          disabled={!settings.data}
          onChange={(e) => {
            setChosen(e.target.checked);
            save.mutate({ on: e.target.checked });
          }}
        />{" "}
        Create the host, service and item of a series seen for the first time
      </label>
      <p className="muted">
        Off: only series already configured here are stored; the others are counted in the answer's{" "}
        <span className="mono">x-tidemark-unknown-series</span> header and dropped.
      </p>
      {save.isSuccess && <p className="muted">Saved.</p>}
      {save.error && (
        <p className="error" role="alert">
          {save.error.message}
        </p>
      )}
      <h3>Label mapping</h3>
      <p className="muted">
        Which labels name the host and the service; the metric name and the other labels name the item. Each remote_write block chooses them
        in its URL:
      </p>
      <div className="settings-form">
        {(
          [
            ["hostLabel", "Host label", hostLabel, setHostLabel],
            ["serviceLabel", "Service label", serviceLabel, setServiceLabel],
          ] as const
        ).map(([key, label, value, setValue]) => (
          <label key={key} className="settings-field">
            <span>{label}</span>
            <input
              className="mono"
              aria-label={label}
              aria-invalid={problems.has(key)}
              value={value}
              onChange={(e) => {
                setValue(e.target.value);
                setCopied(false);
              }}
            />
            {problems.has(key) && <span className="field-error">{problems.get(key)}</span>}
          </label>
        ))}
      </div>
      {block && (
        <>
          <textarea
            className="mono settings-snippet"
            aria-label="remote_write block for prometheus.yml"
            readOnly
            rows={4}
            spellCheck={false}
            value={block}
          />
          <button
            type="button"
            className="secondary"
            onClick={async () => {
              await navigator.clipboard?.writeText(block).catch(() => {});
              setCopied(true);
            }}
          >
            {copied ? "Copied" : "Copy"}
          </button>
        </>
      )}
    </section>
  );
}
