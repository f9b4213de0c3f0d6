import { chromium, type Page } from "@playwright/test";
import { ALERT_LIST_RENDERED_MARK, TIMELINE_DRAWN_MARK } from "../../apps/web/src/components/alerts/render-marks.ts";
import { ensureWebBuild } from "../../scripts/lib/build.ts";
import { CHROMIUM, CHROMIUM_ARGS, ensureChromium } from "../../scripts/lib/chromium.ts";
import { freePort } from "../../scripts/lib/ports.ts";
import { ProcessGroup, waitForHttp } from "../../scripts/lib/processes.ts";
import { webServerCommand } from "../../scripts/lib/web-server.ts";
import { seedAlertHistory } from "../lib/alert-history.ts";
import { benchUserSession } from "../lib/bench-user.ts";
import { postgresServerCpuMs, processTreeCpuMs } from "../lib/server-cpu.ts";
import { summarize } from "../lib/stats.ts";
import type { BenchScenario } from "../scenario.ts";

/**
 * Issue 7's "10 000 alerts over 30 days render in under a second", measured where it happens:
 * the production build (`next build` + `next start`, as `npm start` runs it) serving
 * `/alerts?range=30d` to Debian's Chromium, timed from navigation start to the User Timing mark
 * the timeline sets once it has drawn its lanes (and, apart, to the one the list of alerts below
 * the lanes sets once it has rendered: it renders after them). Cold loads use a fresh browser
 * context each (a new profile: empty cache, and Chromium's start-up of a context counted in);
 * first visits open a new tab in a running browser's window with its HTTP cache emptied; warm
 * loads reload one page (cached scripts: a return visit).
 * Each load's milestones (HTML, scripts, the timeline request) and the CPU the web server, the
 * database and the browser spent per load say where the time went.
 */

const LOADS = 7;
const GOAL_MS = 1000;
const SESSION_COOKIE = "tm_session";

interface Load {
  drawnMs: number;
  /** The list of the window's alerts below the lanes: it renders after them. */
  listRenderedMs: number;
  htmlFirstByteMs: number;
  htmlDoneMs: number;
  scriptsDoneMs: number;
  domContentLoadedMs: number;
  timelineRequestStartMs: number | null;
  timelineResponseEndMs: number | null;
  timelineResponseKb: number | null;
  scriptKb: number;
  scripts: number;
  lanesDrawn: number;
}

/** Milestones in ms since navigation start, from the page's own timing entries. */
async function readLoad(page: Page): Promise<Load> {
  // Only plain entries cross over: functions defined in here would need tsx's helpers in the page.
  const entries = await page.evaluate(
    (markNames) => ({
      mark: performance.getEntriesByName(markNames.drawn, "mark")[0]?.toJSON() as PerformanceMark,
      listMark: performance.getEntriesByName(markNames.list, "mark")[0]?.toJSON() as PerformanceMark,
      nav: performance.getEntriesByType("navigation")[0]?.toJSON() as PerformanceNavigationTiming,
      resources: performance.getEntriesByType("resource").map((r) => r.toJSON()) as PerformanceResourceTiming[],
      canvasLabel: document.querySelector("[data-testid=timeline-canvas]")?.getAttribute("aria-label") ?? "",
    }),
    { drawn: TIMELINE_DRAWN_MARK, list: ALERT_LIST_RENDERED_MARK },
  );
  const { mark, listMark, nav, resources } = entries;
  const scripts = resources.filter((r) => r.initiatorType === "script" || /\.js(\?|$)/.test(r.name));
  const timeline = resources.find((r) => r.name.includes("/api/trpc/") && r.name.includes("alerts.timeline"));
  const round = (n: number) => Math.round(n);
  return {
    drawnMs: round(mark.startTime),
    listRenderedMs: round(listMark.startTime),
    htmlFirstByteMs: round(nav.responseStart),
    htmlDoneMs: round(nav.responseEnd),
    scriptsDoneMs: round(Math.max(0, ...scripts.map((r) => r.responseEnd))),
    domContentLoadedMs: round(nav.domContentLoadedEventEnd),
    timelineRequestStartMs: timeline ? round(timeline.startTime) : null,
    timelineResponseEndMs: timeline ? round(timeline.responseEnd) : null,
    timelineResponseKb: timeline ? round(timeline.encodedBodySize / 1024) : null,
    scriptKb: round(scripts.reduce((n, r) => n + r.encodedBodySize, 0) / 1024),
    scripts: scripts.length,
    lanesDrawn: Number(/(\d+) series/.exec(entries.canvasLabel)?.[1] ?? 0),
  };
}

/** Until the lanes are drawn, the list below them rendered and the page loaded (its timing entries are complete only then). */
async function waitUntilDrawn(page: Page) {
  await page.waitForFunction(
    (markNames) => markNames.every((name) => performance.getEntriesByName(name, "mark").length > 0),
    [TIMELINE_DRAWN_MARK, ALERT_LIST_RENDERED_MARK],
    { timeout: 60_000 },
  );
  await page.waitForLoadState("load");
}

/** Medians of each milestone, and p50/p95 of the one that counts. */
function summarizeLoads(loads: Load[]) {
  const median = (pick: (l: Load) => number | null) => summarize(loads.map(pick).filter((v): v is number => v !== null)).p50;
  const drawn = summarize(loads.map((l) => l.drawnMs));
  return {
    loads: loads.length,
    drawnMs: { p50: drawn.p50, p95: drawn.p95, max: drawn.max },
    goalUnder1s: { p50: drawn.p50 < GOAL_MS, p95: drawn.p95 < GOAL_MS },
    medianMilestonesMs: {
      htmlFirstByte: median((l) => l.htmlFirstByteMs),
      htmlDone: median((l) => l.htmlDoneMs),
      scriptsDone: median((l) => l.scriptsDoneMs),
      domContentLoaded: median((l) => l.domContentLoadedMs),
      timelineRequestStart: median((l) => l.timelineRequestStartMs),
      timelineResponseEnd: median((l) => l.timelineResponseEndMs),
      drawn: drawn.p50,
      listRendered: median((l) => l.listRenderedMs),
    },
    timelineResponseKb: loads[0]?.timelineResponseKb ?? null,
    scriptKb: loads[0]?.scriptKb ?? null,
    scripts: loads[0]?.scripts ?? null,
    lanesDrawn: loads[0]?.lanesDrawn ?? 0,
    drawnMsEach: loads.map((l) => l.drawnMs),
  };
}

/**
 * LOADS loads, summarised, with the CPU each took on average: the web server's, this process's
 * (the embedded database runs in it, beside Playwright's driver), PostgreSQL's for a plain run,
 * and the browser's (every other process this one started). Wall times vary with whatever else
 * the machine runs; CPU per load varies much less, so it shows what a change saved.
 */
async function measureLoads(webPid: number, load: () => Promise<Load>) {
  const cpu = () => {
    const own = process.cpuUsage();
    return {
      web: processTreeCpuMs(webPid),
      all: processTreeCpuMs(process.pid),
      own: (own.user + own.system) / 1000,
      postgres: postgresServerCpuMs(),
    };
  };
  const before = cpu();
  const loads: Load[] = [];
  for (let i = 0; i < LOADS; i++) loads.push(await load());
  const after = cpu();
  const perLoad = (ms: number) => Math.round(ms / LOADS);
  const web = after.web - before.web;
  const own = after.own - before.own;
  return {
    ...summarizeLoads(loads),
    cpuMsPerLoad: {
      webServer: perLoad(web),
      benchProcess: perLoad(own),
      postgresServer: perLoad(after.postgres - before.postgres),
      browser: perLoad(after.all - before.all - web - own),
    },
  };
}

export const scenario: BenchScenario = {
  name: "timeline-render",
  needsDatabase: true,
  async run({ db, log }) {
    if (!db) throw new Error("the timeline-render scenario needs a database");
    await ensureChromium(log);
    const { organization, session } = await benchUserSession(db, "Render");
    // The history ends now, so that the live 30-day window the page offers shows all of it.
    const history = await seedAlertHistory(db, organization.id, Math.floor(Date.now() / 60_000) * 60_000);
    log(`timeline-render: ${history.alertsOpened} alerts on ${history.series} series`);

    await ensureWebBuild(log);
    const port = await freePort();
    const web = new ProcessGroup((name, code) => log(`${name} exited unexpectedly (code ${code})`));
    const command = webServerCommand(port, { ...process.env, DATABASE_URL: db.url });
    const webChild = web.start("web", command.command, command.args, command);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitForHttp(`${base}/api/health`, 60_000);
      const url = `${base}/alerts?range=30d`;
      const newContext = async () => {
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        await context.addCookies([{ name: SESSION_COOKIE, value: session.secret, url: base }]);
        return context;
      };

      // One unmeasured load: the server's first requests load its route modules.
      const warmUp = await newContext();
      const warmUpPage = await warmUp.newPage();
      await warmUpPage.goto(url);
      await waitUntilDrawn(warmUpPage);
      await warmUp.close();

      const cold = await measureLoads(webChild.pid as number, async () => {
        const context = await newContext();
        const page = await context.newPage();
        await page.goto(url, { waitUntil: "commit" });
        await waitUntilDrawn(page);
        const load = await readLoad(page);
        await context.close();
        return load;
      });
      // A first visit from a browser already running (the user's usual case): same context, the
      // HTTP cache emptied before each load, a new tab each time — no context start-up measured.
      const running = await newContext();
      // Its window stays open on a tab of its own, so that each visit's tab opens in it. Closing a
      // context's last tab closes its window, and the next tab then opens a new window, whose
      // browser UI (Chromium's omnibox popups, WebUI renderers) starts up beside the page: about a
      // second of CPU on this machine, a window's start-up that a new tab does not pay.
      await running.newPage();
      const firstVisit = await measureLoads(webChild.pid as number, async () => {
        const page = await running.newPage();
        const cdp = await running.newCDPSession(page);
        await cdp.send("Network.clearBrowserCache");
        await page.goto(url, { waitUntil: "commit" });
        await waitUntilDrawn(page);
        const load = await readLoad(page);
        await page.close();
        return load;
      });
      await running.close();

      const context = await newContext();
      const page = await context.newPage();
      await page.goto(url);
      await waitUntilDrawn(page);
      const warm = await measureLoads(webChild.pid as number, async () => {
        await page.reload({ waitUntil: "commit" });
        await waitUntilDrawn(page);
        return readLoad(page);
      });
      await context.close();

      if (cold.lanesDrawn !== history.series) throw new Error(`drew ${cold.lanesDrawn} lanes, expected ${history.series}`);
      return { alerts: history.alertsOpened, series: history.series, window: "30d", cold, firstVisit, warm };
    } finally {
      await browser.close();
      await web.stopAll();
    }
  },
};
