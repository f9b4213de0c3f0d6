"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Period, ThresholdPolicy } from "@tidemark/thresholds";
import Link from "next/link";
import { useEffect, useMemo, useRef, useState } from "react";
import { ItemForm } from "~/components/config/item-form";
import { useTRPC } from "~/trpc/react";
import { DayCurveChart } from "./day-curve-chart";
import { DeploymentStatus } from "./deployment-status";
import { expressionProblem } from "./expression-input";
import { policyReferencedSeries, unknownSeriesProblem } from "./expression-series";
import { HourGrid } from "./hour-grid";
import { PeriodEditor } from "./period-editor";
import { PeriodList } from "./period-list";
import { emptyPolicy, type FieldErrors, updatePeriod, validatePolicy } from "./policy-draft";
import { PolicySettings } from "./policy-settings";
import { PreviewPanel } from "./preview-panel";
import { PrometheusRulesExport } from "./prometheus-rules-export";
import { SuggestPanel } from "./suggest-panel";
import { ValueBoundsForm } from "./value-bounds-form";
import "./thresholds.css";

/** Errors under `prefix.` with the prefix removed, for a sub-form. */
function scoped(errors: FieldErrors, prefix: string): FieldErrors {
  const out: FieldErrors = new Map();
  for (const [k, v] of errors) if (k.startsWith(`${prefix}.`)) out.set(k.slice(prefix.length + 1), v);
  return out;
}

function syntaxErrors(policy: ThresholdPolicy): number {
  return policy.periods.reduce(
    (n, p) => n + p.hours.entries.filter((e) => e?.kind === "expression" && expressionProblem(e.source) !== null).length,
    0,
  );
}

/**
 * The item page: its threshold policy as an editable draft (periods, the day's curve, the 24 hour
 * entries), the preview of that draft over history, suggestions, and the item's own settings.
 */
export function ItemEditor({ itemId, readOnlyReason = null }: { itemId: string; readOnlyReason?: string | null }) {
  const readOnly = readOnlyReason !== null;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const item = useQuery(trpc.thresholds.item.queryOptions({ id: itemId }));
  const [draft, setDraft] = useState<ThresholdPolicy | null>(null);
  const [loadedRevision, setLoadedRevision] = useState<number | null | undefined>(undefined);
  const [selected, setSelected] = useState(0);
  const [savedMessage, setSavedMessage] = useState<string | null>(null);
  const save = useMutation(trpc.thresholds.save.mutationOptions());
  const updateItem = useMutation(trpc.config.items.update.mutationOptions());

  // The draft starts as the saved policy, and starts over whenever a newer revision is loaded.
  useEffect(() => {
    if (!item.data || loadedRevision === item.data.policyRevision) return;
    setDraft(item.data.policy);
    setLoadedRevision(item.data.policyRevision);
    setSelected((s) => Math.min(s, Math.max(0, (item.data.policy?.periods.length ?? 1) - 1)));
  }, [item.data, loadedRevision]);

  const validation = useMemo(() => (draft ? validatePolicy(draft) : null), [draft]);
  const errors: FieldErrors = validation && !validation.ok ? validation.errors : new Map();
  const unparsable = useMemo(() => (draft ? syntaxErrors(draft) : 0), [draft]);
  const dirty = item.data !== undefined && JSON.stringify(draft) !== JSON.stringify(item.data.policy);
  const valid = validation?.ok === true && unparsable === 0;

  // Series the expressions read that the organisation neither configures nor has data for: said at
  // the field, and the draft is not saved until they are fixed (they would read as "no data" for ever).
  const macros = useMemo(
    () => (item.data ? { host: item.data.host, service: item.data.service, item: item.data.fields.name } : null),
    [item.data],
  );
  const referenced = useMemo(() => (draft && macros ? policyReferencedSeries(draft, macros) : []), [draft, macros]);
  const unknownQuery = useQuery({
    ...trpc.config.unknownSeries.queryOptions({ keys: referenced }),
    enabled: referenced.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const unknownSeries = useMemo(
    () => new Set((referenced.length > 0 ? (unknownQuery.data ?? []) : []).filter((k) => referenced.includes(k))),
    [referenced, unknownQuery.data],
  );
  const savable = valid && unknownSeries.size === 0;

  // Escape and "Discard changes" put back the last saved policy, all of it: the draft, and what the
  // fields hold that is not in the draft yet (a half-typed number), by mounting them afresh.
  const [resetKey, setResetKey] = useState(0);
  const editorPanel = useRef<HTMLElement>(null);
  const onEscape = useRef<() => void>(() => {});
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Taken already (a completion list, a day-curve drag), or meant for a dialog or another panel.
      if (e.key !== "Escape" || e.defaultPrevented || document.querySelector("dialog[open]")) return;
      const target = e.target instanceof Node ? e.target : null;
      if (target !== document.body && !editorPanel.current?.contains(target)) return;
      onEscape.current();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  // Ctrl+S / ⌘+S saves from anywhere on the page (106 Tab presses away otherwise); the browser's
  // own "save page" never makes sense here.
  const saveShortcut = useRef<() => void>(() => {});
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() !== "s" || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      e.preventDefault();
      saveShortcut.current();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  if (item.isError)
    return (
      <p className="error">
        {item.error.data?.code === "NOT_FOUND" ? "Not found: there is no such service item in this organisation." : item.error.message}
      </p>
    );
  if (!item.data) return <p className="muted">Loading…</p>;
  const d = item.data;
  const period = draft?.periods[selected];
  const setPeriod = (p: Period) => draft && setDraft(updatePeriod(draft, selected, () => p));

  async function onSave() {
    if (!draft || !validation?.ok) return;
    setSavedMessage(null);
    const saved = await save.mutateAsync({ itemId, policy: validation.policy, revision: d.policyRevision });
    await queryClient.invalidateQueries({ queryKey: trpc.thresholds.item.queryKey({ id: itemId }) });
    await queryClient.invalidateQueries({ queryKey: trpc.thresholds.deployment.queryKey({ id: itemId }) });
    setSavedMessage(`Saved revision ${saved.revision}.`);
  }
  saveShortcut.current = () => {
    if (!readOnly && dirty && savable && !save.isPending) void onSave().catch(() => {});
  };
  function revert() {
    setDraft(d.policy);
    setSelected((s) => Math.min(s, Math.max(0, (d.policy?.periods.length ?? 1) - 1)));
    setSavedMessage(null);
    save.reset();
    setResetKey((k) => k + 1);
  }
  onEscape.current = () => {
    if (readOnly) return;
    const saved = d.policyRevision ? `revision ${d.policyRevision}` : "no threshold";
    if (!dirty || window.confirm(`Discard every unsaved change to this threshold and go back to the saved one (${saved})?`)) revert();
  };

  return (
    <div className="stack item-page">
      <header className="item-head">
        <nav className="breadcrumb muted">
          <Link href="/config/hosts">Configuration</Link> / <Link href={`/config/hosts/${d.hostId}`}>{d.host}</Link> /{" "}
          <Link href={`/config/services/${d.serviceId}`}>{d.service}</Link>
        </nav>
        <h1 className="mono">{d.seriesKey}</h1>
        <p className="muted">
          {d.fields.description || "No description"} · runs on {d.serviceUrl.split("://")[0]}
          {d.seriesId !== null && (
            <>
              {" · "}
              <Link href={`/?series=${d.seriesId}`}>history on the overview</Link>
            </>
          )}
        </p>
      </header>

      <section className="panel" aria-label="Threshold editor" ref={editorPanel}>
        <div className="panel-head">
          <h2>Threshold policy{d.policyName ? ` · template ${d.policyName}` : ""}</h2>
          {d.sharedWith > 0 && <span className="note">Shared with {d.sharedWith} other item(s): saving changes them too.</span>}
        </div>
        {readOnly && (
          <p className="read-only-note" role="note">
            Read only. {readOnlyReason}
          </p>
        )}
        {!draft && (
          <div className="empty-policy">
            <p className="muted">This item has no threshold: its results are stored but never judged.</p>
            {!readOnly && (
              <button type="button" onClick={() => setDraft(emptyPolicy())}>
                Create a threshold policy
              </button>
            )}
          </div>
        )}
        {draft && period && (
          <fieldset key={resetKey} className="editor-layout" disabled={readOnly} aria-label="Policy">
            <aside>
              <h3>Periods</h3>
              <PeriodList policy={draft} selected={selected} onSelect={setSelected} onChange={setDraft} />
              <h3>Policy</h3>
              <PolicySettings policy={draft} onChange={setDraft} errors={errors} />
            </aside>
            <div className="editor-main">
              <PeriodEditor period={period} onChange={setPeriod} errors={scoped(errors, `periods.${selected}`)} />
              <DayCurveChart period={period} onChange={setPeriod} readOnly={readOnly} />
              <HourGrid
                period={period}
                onChange={setPeriod}
                errors={scoped(errors, `periods.${selected}`)}
                seriesProblem={(source) => (macros ? unknownSeriesProblem(source, macros, unknownSeries) : null)}
              />
            </div>
          </fieldset>
        )}
        {draft && !readOnly && (
          <div className="save-bar">
            <span className={unknownSeries.size > 0 ? "error" : "muted"} data-testid="save-status">
              {unparsable > 0
                ? `${unparsable} expression(s) do not parse.`
                : unknownSeries.size > 0
                  ? `Not saved while expressions read unknown series: ${[...unknownSeries].join(", ")}.`
                  : !valid
                    ? "Some fields are not valid."
                    : dirty
                      ? "Unsaved changes."
                      : (savedMessage ?? `Saved${d.policyRevision ? ` · revision ${d.policyRevision}` : ""}.`)}
            </span>
            {save.isError && <span className="error">{save.error.message}</span>}
            <button type="button" className="secondary" disabled={!dirty} onClick={revert} aria-keyshortcuts="Escape" title="Escape">
              Discard changes
            </button>
            <button
              type="button"
              disabled={!dirty || !savable || save.isPending}
              onClick={onSave}
              aria-keyshortcuts="Control+S Meta+S"
              title="Ctrl+S / ⌘+S"
            >
              {save.isPending ? "Saving…" : "Save threshold"}
            </button>
          </div>
        )}
      </section>

      <DeploymentStatus itemId={itemId} />

      <PrometheusRulesExport itemId={itemId} fileName={`${d.seriesKey.replace(/[^A-Za-z0-9_.-]+/g, "_")}.rules.yml`} />

      <PreviewPanel itemId={itemId} draft={valid ? draft : null} draftValid={valid || draft === null} />

      {draft && !readOnly && (
        <SuggestPanel itemId={itemId} policy={valid ? draft : null} periodIndex={selected} onChange={setPeriod} onPolicyChange={setDraft} />
      )}

      <section className="panel" aria-label="Item settings">
        <div className="panel-head">
          <h2>Item settings</h2>
        </div>
        {readOnly ? (
          <p className="muted">Read only: only editors and admins change an item's settings.</p>
        ) : (
          <>
            <ValueBoundsForm itemId={itemId} />
            <ItemForm
              key={d.seriesKey}
              initial={d.fields}
              submitLabel="Save item"
              onSubmit={async (fields) => {
                await updateItem.mutateAsync({ id: itemId, fields });
                await queryClient.invalidateQueries({ queryKey: trpc.thresholds.item.queryKey({ id: itemId }) });
              }}
            />
          </>
        )}
      </section>
    </div>
  );
}
