"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { decodeTimeline } from "@tidemark/alerts";
import { usePathname, useSearchParams } from "next/navigation";
import { useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { useTRPC } from "~/trpc/react";
import "./alerts.css";
import { formatInstant, resolveRange, type TimeRange } from "~/lib/time-range";
import { useTimeZone } from "../time/time-zone";
import { AlertDetailPanel } from "./alert-detail";
import { AlertList } from "./alert-list";
import { AlertPagesTitle } from "./alert-pages-title";
import { labelWidth, TIMELINE_VIEW_HEIGHT, TimelineCanvas } from "./timeline-canvas";
import { TimelineControls } from "./timeline-controls";
import { layoutTimeline } from "./timeline-layout";
import { parseView, type TimelineView, timelineRequest, viewToParams } from "./url-state";

const POLL_MS = 15_000;

function useElementWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  // Measured before the first paint, so that the lanes draw in the same frame as the page.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

const subscribeToNothing = () => () => {};

/**
 * False while React hydrates the server's HTML, true from the first render after. The server
 * renders the page without the timeline's data (it streams in after the page's HTML): when the
 * data is already here at hydration, rendering it then would not match that HTML, and React
 * would throw the hydrated tree away and render it again.
 */
function useHydrated() {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

/** Ticks every `ms` so that a live window slides and open alerts grow; starts at the server's now. */
function useNow(ms: number, serverNow: number) {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const timer = setInterval(() => setNow(Math.floor(Date.now() / 1000) * 1000), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/**
 * `serverNow` is the instant the server page resolved a live window at when it prefetched the
 * timeline: starting from it, the first query here is the prefetched one.
 */
export function AlertsPage({ serverNow }: { serverNow: number }) {
  const trpc = useTRPC();
  const pathname = usePathname();
  const params = useSearchParams();
  const view = useMemo(() => parseView(new URLSearchParams(params.toString())), [params]);
  const now = useNow(POLL_MS, serverNow);
  const window = resolveRange(view.window, now);
  const { timeZone } = useTimeZone();
  const { from, to } = window;
  const [lanesRef, lanesWidth] = useElementWidth<HTMLDivElement>();
  const me = useQuery(trpc.session.me.queryOptions());
  const canEdit = me.data?.role === "editor" || me.data?.role === "admin";

  // Text filters go to the server a moment after typing stops, not on every key.
  const [host, setHost] = useState(view.host);
  const [service, setService] = useState(view.service);
  useEffect(() => setHost(view.host), [view.host]);
  useEffect(() => setService(view.service), [view.service]);

  const timeline = useQuery({
    ...trpc.alerts.timeline.queryOptions(timelineRequest(view, now)),
    placeholderData: keepPreviousData,
    refetchInterval: POLL_MS,
  });

  // The view lives in the browser: the URL only mirrors it (Next.js keeps useSearchParams in step
  // with the History API), so a change costs no server render, only the queries it needs. A new
  // window is a new history entry (Back steps through the ranges looked at); a filter is not.
  function navigate(next: TimelineView, entry: "push" | "replace" = "replace") {
    const params = viewToParams(next);
    // The organisation stays in the address (see OrgInUrl).
    const org = new URLSearchParams(globalThis.location.search).get("org");
    if (org) params.set("org", org);
    const url = `${pathname}?${params}`;
    if (entry === "push") globalThis.history.pushState(null, "", url);
    else globalThis.history.replaceState(null, "", url);
  }
  const update = (patch: Partial<TimelineView>) => navigate({ ...view, ...patch });
  const setRange = (range: TimeRange) => navigate({ ...view, window: range }, "push");
  useEffect(() => {
    if (host === view.host && service === view.service) return;
    const timer = setTimeout(() => navigate({ ...view, host, service }), 300);
    return () => clearTimeout(timer);
  });

  const labels = labelWidth(lanesWidth);
  const canvasWidth = Math.max(160, lanesWidth - labels);
  // Until hydration is over, what the server rendered: no data, nothing said about the request.
  const shown = useHydrated() ? timeline : null;
  const encoded = shown?.data?.encoded;
  const data = useMemo(() => (encoded ? decodeTimeline(encoded) : undefined), [encoded]);
  // Laid out once the lanes' width is known, not first for a guess.
  const lanes = useMemo(
    () => (data && lanesWidth > 0 ? layoutTimeline(data, { from, to }, canvasWidth, now) : []),
    [data, from, to, lanesWidth, canvasWidth, now],
  );
  // The list below the lanes renders after them: the lanes draw first.
  const listData = useDeferredValue(data);

  return (
    <div className="stack">
      <AlertPagesTitle title="Alerts" current="/alerts" />
      <section className="panel" aria-label="Timeline">
        <TimelineControls
          view={{ ...view, host, service }}
          onChange={(patch) => {
            if ("host" in patch) setHost(patch.host ?? "");
            if ("service" in patch) setService(patch.service ?? "");
            const { host: _h, service: _s, ...rest } = patch;
            if (Object.keys(rest).length) update(rest);
          }}
          bounds={window}
          onRange={setRange}
        />
        <p className="muted tl-status" aria-live="polite">
          {view.window.kind === "relative" ? "Live: " : ""}
          {formatInstant(window.from, timeZone)} – {formatInstant(window.to, timeZone)} {timeZone} ·{" "}
          {data ? `${data.alerts.length} alerts on ${data.lanes.length} series` : "loading…"}
          {data?.truncated && " (only the newest are shown: narrow the window or the filters)"}
          {shown?.isFetching && " · updating"}
          {" · drag across the lanes to zoom"}
        </p>
        {shown?.error && <p className="error">{shown.error.message}</p>}
        <div ref={lanesRef} className="tl-scroll" style={{ maxHeight: TIMELINE_VIEW_HEIGHT }}>
          {lanesWidth > 0 && (
            <TimelineCanvas
              lanes={lanes}
              width={canvasWidth}
              window={window}
              timeZone={timeZone}
              labelWidth={labels}
              selected={view.alert}
              scroller={lanesRef}
              onSelect={(alert) => update({ alert })}
              onZoom={(from, to) => setRange({ kind: "absolute", from, to })}
            />
          )}
        </div>
        <Legend />
      </section>
      <div className={view.alert ? "tl-split" : undefined}>
        {listData && <AlertList data={listData} now={now} selected={view.alert} onSelect={(alert) => update({ alert })} />}
        {view.alert && <AlertDetailPanel alertId={view.alert} canEdit={canEdit} onClose={() => update({ alert: null })} />}
      </div>
    </div>
  );
}

function Legend() {
  return (
    <div className="tl-legend muted">
      <span>
        <i className="tl-swatch" style={{ background: "var(--critical)" }} /> critical
      </span>
      <span>
        <i className="tl-swatch" style={{ background: "var(--warning)" }} /> warning
      </span>
      <span>
        <i className="tl-swatch" style={{ background: "var(--unknown)" }} /> unknown
      </span>
      <span>bars: alerts (faded when acknowledged, striped when flapping) · bands: state changes (faint when soft)</span>
    </div>
  );
}
