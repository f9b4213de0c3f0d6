"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { downloadText } from "~/lib/download";
import { useTRPC } from "~/trpc/react";

/**
 * The item's threshold policy in force (the deployed one) as a Prometheus rule group: shown, to
 * copy or download for `rule_files:`. Items Prometheus remote-writes know their selector; others
 * need the PromQL selector of the series measuring them. A policy PromQL cannot say (another time
 * zone, mixed methods) or an item not deployed gets the server's reason.
 */
export function PrometheusRulesExport({ itemId, fileName }: { itemId: string; fileName: string }) {
  const trpc = useTRPC();
  const selectorId = useId();
  const [selector, setSelector] = useState("");
  const [requested, setRequested] = useState<{ selector: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const rules = useQuery({
    ...trpc.thresholds.prometheusRules.queryOptions({ itemId, selector: requested?.selector.trim() || undefined }),
    enabled: requested !== null,
    retry: false,
  });
  return (
    <section className="panel" aria-label="Prometheus rules">
      <div className="panel-head">
        <h2>Prometheus rules</h2>
      </div>
      <p className="muted">
        The threshold in force — the deployed version, not the draft — as recording and alerting rules for Prometheus'{" "}
        <span className="mono">rule_files:</span>.
      </p>
      <form
        className="rules-form"
        onSubmit={(e) => {
          e.preventDefault();
          setCopied(false);
          setRequested({ selector });
        }}
      >
        <label htmlFor={selectorId}>PromQL selector (only for items Prometheus does not remote-write)</label>
        <input
          id={selectorId}
          className="mono rules-selector"
          placeholder='node_load1{instance="db1:9100"}'
          value={selector}
          onChange={(e) => setSelector(e.target.value)}
        />
        <button type="submit" disabled={rules.isFetching}>
          {rules.isFetching ? "Exporting…" : "Export rules"}
        </button>
      </form>
      {rules.isError && (
        <p className="error" role="alert">
          Cannot export: {rules.error.message}
        </p>
      )}
      {rules.data && (
        <>
          <p className="muted" data-testid="rules-version">
            From deployed version {rules.data.deploymentVersion}, measuring <span className="mono">{rules.data.selector}</span>.
          </p>
          <div className="rules-buttons">
            <button type="button" onClick={() => downloadText(fileName, rules.data.yaml, "application/yaml")}>
              Download {fileName}
            </button>
            <button
              type="button"
              className="secondary"
              onClick={async () => {
                await navigator.clipboard?.writeText(rules.data.yaml).catch(() => {});
                setCopied(true);
              }}
            >
              {copied ? "Copied" : "Copy"}
            </button>
          </div>
          <textarea
            className="rules-yaml mono"
            aria-label="Rule group YAML"
            readOnly
            rows={16}
            spellCheck={false}
            value={rules.data.yaml}
          />
        </>
      )}
    </section>
  );
}
