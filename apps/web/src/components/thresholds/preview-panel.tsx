"use client";

import { useMutation } from "@tanstack/react-query";
import type { ThresholdPolicy } from "@tidemark/thresholds";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { useTRPC } from "~/trpc/react";
import { bounds, PRESETS, type Preset, type PreviewWindow, readMoment, readWindow, toInputValue, writeWindow } from "./preview-window";

const MAX_DRAWN_SPANS = 400;
const SPAN_COLORS = { WARNING: "#f59e0b", CRITICAL: "#ef4444", UNKNOWN: "#a78bfa" } as const;
const timeFormat = new Intl.DateTimeFormat("en-GB", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

interface Outcome {
  summary: {
    alerts: number;
    criticalAlerts: number;
    warningMinutes: number;
    criticalMinutes: number;
    unknownMinutes: number;
    withoutThreshold: number;
    results: number;
  };
  errors: string[];
}

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

const minutes = (m: number) => (m >= 120 ? `${Math.round(m / 6) / 10} h` : `${Math.round(m)} min`);

function SummaryColumn({ outcome }: { outcome: Outcome | null }) {
  if (!outcome) return null;
  const s = outcome.summary;
  return (
    <>
      <dd data-testid="alerts">{s.alerts}</dd>
      <dd>{s.criticalAlerts}</dd>
      <dd>{minutes(s.warningMinutes)}</dd>
      <dd>{minutes(s.criticalMinutes)}</dd>
      <dd>{minutes(s.unknownMinutes)}</dd>
      <dd>{s.withoutThreshold}</dd>
    </>
  );
}

/**
 * The draft's threshold over real history: metric (mean with its min–max), threshold and bands,
 * shaded where the draft would have raised WARNING/CRITICAL, and alert counts for the draft and
 * for the deployed version. The window lives in the URL so that a preview can be shared.
 */
export function PreviewPanel({ itemId, draft, draftValid }: { itemId: string; draft: ThresholdPolicy | null; draftValid: boolean }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const window = readWindow(new URLSearchParams(params.toString()));
  const moment = readMoment(new URLSearchParams(params.toString()));
  const [now, setNow] = useState(() => Date.now());
  const { from, to } = bounds(window, now);
  // Primitive bounds: the effect below must only rerun when the window really changes.
  const fromMs = from.getTime();
  const toMs = to.getTime();
  const [customFrom, setCustomFrom] = useState(toInputValue(from));
  const [customTo, setCustomTo] = useState(toInputValue(to));
  const debouncedDraft = useDebounced(draft, 350);
  const preview = useMutation(trpc.preview.run.mutationOptions());
  const { mutate } = preview;

  useEffect(() => {
    if (!draftValid) return;
    mutate({ itemId, from: new Date(fromMs), to: new Date(toMs), draft: debouncedDraft });
  }, [mutate, itemId, fromMs, toMs, debouncedDraft, draftValid]);

  function go(next: PreviewWindow) {
    router.replace(`${pathname}?${writeWindow(new URLSearchParams(params.toString()), next).toString()}`, { scroll: false });
  }

  const result = preview.data;
  const chartData = result?.points.map((p) => ({
    ts: p.ts,
    avg: p.avg,
    range: p.min !== null && p.max !== null ? [p.min, p.max] : null,
    threshold: p.threshold,
    warning: p.warning,
    critical: p.critical,
    warningLow: p.warningLow,
    criticalLow: p.criticalLow,
    deployedThreshold: p.deployedThreshold,
  }));
  const spans = result?.draft?.spans ?? [];
  const drawn =
    spans.length > MAX_DRAWN_SPANS ? [...spans].sort((a, b) => b.to - b.from - (a.to - a.from)).slice(0, MAX_DRAWN_SPANS) : spans;
  const deployed = result?.deployed;

  return (
    <section className="panel" aria-label="Preview">
      <div className="panel-head">
        <h2>Preview and backtest</h2>
        <div className="preview-controls">
          <fieldset className="segmented" aria-label="Window">
            {(Object.keys(PRESETS) as Preset[]).map((k) => (
              <button
                key={k}
                type="button"
                aria-pressed={window.kind === "preset" && window.preset === k}
                onClick={() => {
                  setNow(Date.now());
                  go({ kind: "preset", preset: k });
                }}
              >
                {k}
              </button>
            ))}
            <button type="button" aria-pressed={window.kind === "custom"} onClick={() => go({ kind: "custom", from, to })}>
              custom
            </button>
          </fieldset>
          {window.kind === "custom" && (
            <form
              className="custom-window"
              onSubmit={(e) => {
                e.preventDefault();
                const f = new Date(`${customFrom}Z`);
                const t = new Date(`${customTo}Z`);
                if (f < t) go({ kind: "custom", from: f, to: t });
              }}
            >
              <input type="datetime-local" aria-label="From (UTC)" value={customFrom} onChange={(e) => setCustomFrom(e.target.value)} />
              <input type="datetime-local" aria-label="To (UTC)" value={customTo} onChange={(e) => setCustomTo(e.target.value)} />
              <button type="submit" className="secondary">
                Apply
              </button>
            </form>
          )}
        </div>
      </div>
      {moment && (
        <p className="preview-moment" data-testid="preview-moment">
          Alert fired {timeFormat.format(moment)} UTC
          {moment >= from && moment <= to ? ", marked on the chart" : ", outside this window"}
        </p>
      )}
      {!draftValid && <p className="muted">Fix the errors in the editor to preview the draft.</p>}
      {preview.isError && <p className="error">{preview.error.message}</p>}
      <div className={`chart preview-chart${preview.isPending ? " loading" : ""}`}>
        {chartData?.every((p) => p.avg === null) && <p className="muted">No history for this item in this window.</p>}
        {chartData?.some((p) => p.avg !== null) && (
          <ResponsiveContainer width="100%" height={320}>
            <ComposedChart data={chartData} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
              <CartesianGrid stroke="#233042" strokeDasharray="3 3" />
              <XAxis
                dataKey="ts"
                type="number"
                scale="time"
                domain={[from.getTime(), to.getTime()]}
                tickFormatter={(v) => timeFormat.format(v)}
                stroke="#8da2bb"
                minTickGap={48}
              />
              <YAxis stroke="#8da2bb" width={64} />
              <Tooltip
                labelFormatter={(v) => `${timeFormat.format(Number(v))} UTC`}
                contentStyle={{ background: "#111a27", border: "1px solid #2b3a50" }}
              />
              {drawn.map((s) => (
                <ReferenceArea
                  key={`${s.from}-${s.state}`}
                  x1={s.from}
                  x2={s.to}
                  fill={SPAN_COLORS[s.state]}
                  fillOpacity={0.16}
                  stroke="none"
                  ifOverflow="hidden"
                />
              ))}
              {moment && (
                <ReferenceLine
                  x={moment.getTime()}
                  stroke="#e5edf7"
                  strokeDasharray="4 3"
                  ifOverflow="hidden"
                  label={{ value: "alert", position: "insideTopLeft", fill: "#e5edf7", fontSize: 11 }}
                />
              )}
              <Area dataKey="range" stroke="none" fill="#3b82f6" fillOpacity={0.2} isAnimationActive={false} name="min–max" />
              <Line dataKey="avg" stroke="#60a5fa" dot={false} strokeWidth={1.3} isAnimationActive={false} name="value" />
              <Line dataKey="threshold" stroke="#e5edf7" dot={false} strokeWidth={1.6} isAnimationActive={false} name="threshold" />
              <Line
                dataKey="deployedThreshold"
                stroke="#a78bfa"
                dot={false}
                strokeWidth={1.2}
                strokeDasharray="1 3"
                isAnimationActive={false}
                name="deployed threshold"
              />
              <Line dataKey="warning" stroke="#f59e0b" dot={false} strokeDasharray="5 4" isAnimationActive={false} name="warning" />
              <Line dataKey="critical" stroke="#ef4444" dot={false} strokeDasharray="5 4" isAnimationActive={false} name="critical" />
              <Line
                dataKey="warningLow"
                stroke="#f59e0b"
                dot={false}
                strokeDasharray="2 4"
                isAnimationActive={false}
                name="warning (low)"
              />
              <Line
                dataKey="criticalLow"
                stroke="#ef4444"
                dot={false}
                strokeDasharray="2 4"
                isAnimationActive={false}
                name="critical (low)"
              />
            </ComposedChart>
          </ResponsiveContainer>
        )}
      </div>
      {result && (
        <div className="preview-summary">
          <dl className="summary-grid" aria-label="Alert summary">
            <dt />
            <dt>Alerts</dt>
            <dt>… reaching CRITICAL</dt>
            <dt>WARNING time</dt>
            <dt>CRITICAL time</dt>
            <dt>UNKNOWN time</dt>
            <dt>Results without threshold</dt>
            <dd className="summary-label">Draft</dd>
            {result.draft ? <SummaryColumn outcome={result.draft} /> : <dd className="summary-wide muted">no threshold policy</dd>}
            <dd className="summary-label">
              {deployed?.status === "deployed" || deployed?.status === "item-not-in-deployment"
                ? `Deployed v${deployed.version}`
                : "Deployed"}
            </dd>
            {deployed?.status === "deployed" && deployed.outcome && <SummaryColumn outcome={deployed.outcome} />}
            {deployed?.status === "deployed" && !deployed.outcome && <dd className="summary-wide muted">deployed without a threshold</dd>}
            {deployed?.status === "not-deployed" && <dd className="summary-wide muted">not deployed</dd>}
            {deployed?.status === "item-not-in-deployment" && (
              <dd className="summary-wide muted">this item is not in the deployed configuration</dd>
            )}
          </dl>
          <p className="muted chart-note">
            {result.resolution === "raw" ? "Every raw result judged" : "Judged on 1-hour buckets (min/max)"} ·{" "}
            {result.draft?.summary.results ?? 0} results ·{" "}
            {spans.length > drawn.length ? `${drawn.length} longest of ${spans.length} alert spans drawn · ` : ""}server{" "}
            {result.timings.metaMs + result.timings.historyMs + result.timings.computeMs} ms
          </p>
          {result.draft?.errors.map((e) => (
            <p key={e} className="field-error">
              {e}
            </p>
          ))}
        </div>
      )}
    </section>
  );
}
