"use client";

import { useMutation } from "@tanstack/react-query";
import type { ThresholdPolicy } from "@tidemark/thresholds";
import { useSearchParams } from "next/navigation";
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
import { ChartTable } from "~/components/time/chart-table";
import { TimeRangePicker } from "~/components/time/time-range-picker";
import { useDragZoom } from "~/components/time/use-drag-zoom";
import { useTimeAxis } from "~/components/time/use-time-axis";
import { useUrlRange } from "~/components/time/use-url-range";
import { formatNumber } from "~/lib/format";
import { useTRPC } from "~/trpc/react";
import { readMoment } from "./preview-window";

const MAX_DRAWN_SPANS = 400;
const SPAN_COLORS = { WARNING: "var(--warning)", CRITICAL: "var(--critical)", UNKNOWN: "var(--unknown)" } as const;
const tooltipNumber = (v: unknown) => (Array.isArray(v) ? v.map((x) => formatNumber(x)).join(" – ") : formatNumber(Number(v)));

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
  const params = useSearchParams();
  const moment = readMoment(new URLSearchParams(params.toString()));
  const { range, bounds, setRange } = useUrlRange("7d");
  const axis = useTimeAxis(bounds);
  const zoom = useDragZoom(setRange);
  // Primitive bounds: the effect below must only rerun when the window really changes.
  const fromMs = bounds.from;
  const toMs = bounds.to;
  const debouncedDraft = useDebounced(draft, 350);
  const preview = useMutation(trpc.preview.run.mutationOptions());
  const { mutate } = preview;

  useEffect(() => {
    if (!draftValid) return;
    mutate({ itemId, from: new Date(fromMs), to: new Date(toMs), draft: debouncedDraft });
  }, [mutate, itemId, fromMs, toMs, debouncedDraft, draftValid]);

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
        <TimeRangePicker range={range} bounds={bounds} onChange={setRange} />
      </div>
      {moment && (
        <p className="preview-moment" data-testid="preview-moment">
          Alert fired {axis.instant(moment.getTime())}
          {moment.getTime() >= fromMs && moment.getTime() <= toMs ? ", marked on the chart" : ", outside this window"}
        </p>
      )}
      {!draftValid && <p className="muted">Fix the errors in the editor to preview the draft.</p>}
      {preview.isError && <p className="error">{preview.error.message}</p>}
      <div className={`chart preview-chart zoomable${preview.isPending ? " loading" : ""}`}>
        {chartData?.every((p) => p.avg === null) && <p className="muted">No history for this item in this window.</p>}
        {chartData?.some((p) => p.avg !== null) && (
          <ResponsiveContainer width="100%" height={320}>
            <ComposedChart data={chartData} margin={{ top: 8, right: 16, bottom: 8, left: 8 }} {...zoom.handlers}>
              <CartesianGrid stroke="var(--grid)" strokeDasharray="3 3" />
              <XAxis
                dataKey="ts"
                type="number"
                scale="time"
                domain={axis.domain}
                ticks={axis.ticks}
                tickFormatter={axis.tick}
                stroke="var(--muted)"
                allowDataOverflow
              />
              <YAxis stroke="var(--muted)" width={64} tickFormatter={(v) => formatNumber(v)} />
              <Tooltip
                labelFormatter={(v) => axis.instant(Number(v))}
                formatter={tooltipNumber}
                contentStyle={{ background: "var(--panel)", border: "1px solid var(--border)" }}
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
                  stroke="var(--text)"
                  strokeDasharray="4 3"
                  ifOverflow="hidden"
                  label={{ value: "alert", position: "insideTopLeft", fill: "var(--text)", fontSize: 11 }}
                />
              )}
              <Area dataKey="range" stroke="none" fill="var(--accent)" fillOpacity={0.2} isAnimationActive={false} name="min–max" />
              <Line dataKey="avg" stroke="var(--series)" dot={false} strokeWidth={1.3} isAnimationActive={false} name="value" />
              <Line dataKey="threshold" stroke="var(--text)" dot={false} strokeWidth={1.6} isAnimationActive={false} name="threshold" />
              <Line
                dataKey="deployedThreshold"
                stroke="var(--unknown)"
                dot={false}
                strokeWidth={1.2}
                strokeDasharray="1 3"
                isAnimationActive={false}
                name="deployed threshold"
              />
              <Line dataKey="warning" stroke="var(--warning)" dot={false} strokeDasharray="5 4" isAnimationActive={false} name="warning" />
              <Line
                dataKey="critical"
                stroke="var(--critical)"
                dot={false}
                strokeDasharray="5 4"
                isAnimationActive={false}
                name="critical"
              />
              <Line
                dataKey="warningLow"
                stroke="var(--warning)"
                dot={false}
                strokeDasharray="2 4"
                isAnimationActive={false}
                name="warning (low)"
              />
              <Line
                dataKey="criticalLow"
                stroke="var(--critical)"
                dot={false}
                strokeDasharray="2 4"
                isAnimationActive={false}
                name="critical (low)"
              />
              {zoom.selection && <ReferenceArea x1={zoom.selection.x1} x2={zoom.selection.x2} fill="var(--accent)" fillOpacity={0.25} />}
            </ComposedChart>
          </ResponsiveContainer>
        )}
      </div>
      {chartData?.some((p) => p.avg !== null) && (
        <ChartTable
          caption="Preview: value, threshold and bands"
          rows={chartData}
          columns={[
            { label: "Time", cell: (r) => axis.instant(r.ts) },
            { label: "Value", cell: (r) => formatNumber(r.avg) },
            { label: "Threshold", cell: (r) => formatNumber(r.threshold) },
            { label: "Warning", cell: (r) => formatNumber(r.warning) },
            { label: "Critical", cell: (r) => formatNumber(r.critical) },
          ]}
        />
      )}
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
