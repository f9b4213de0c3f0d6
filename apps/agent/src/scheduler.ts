import type { AgentCheck, CheckResult } from "@tidemark/protocol";
import { type FireTimes, fireTimes } from "@tidemark/schedule";
import type { CheckRunner } from "./checks/types.ts";
import { IntervalWheel } from "./interval-wheel.ts";
import { ConcurrencyLimiter } from "./limiter.ts";
import { CRON_JITTER_MS, firstDelay, parseSchedule, type Schedule } from "./schedule.ts";

export interface SchedulerEvents {
  results(results: CheckResult[], check: AgentCheck, durationMs: number): void;
  /** A run was due while the previous run of the same check was still queued or running. */
  overlap(check: AgentCheck): void;
}

interface PlannedCheck {
  check: AgentCheck;
  runner: CheckRunner;
  schedules: Schedule[];
  /** Checks scheduled `after:` this one. */
  followers: AgentCheck[];
}

/**
 * Validates a configuration's checks into a plan without touching anything that runs, so that a
 * bad configuration is refused as a whole and the running one stays untouched.
 */
export function planChecks(checks: readonly AgentCheck[], runners: (check: AgentCheck) => CheckRunner | null): Map<string, PlannedCheck> {
  const plan = new Map<string, PlannedCheck>();
  const problems: string[] = [];
  for (const check of checks) {
    if (plan.has(check.id)) problems.push(`${check.id}: listed twice`);
    const runner = runners(check);
    if (!runner) problems.push(`${check.id}: the agent cannot run ${check.url.split("://")[0]}:// checks`);
    const schedules: Schedule[] = [];
    for (const s of check.schedules) {
      try {
        schedules.push(parseSchedule(s));
      } catch (error) {
        problems.push(`${check.id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (runner) plan.set(check.id, { check, runner, schedules, followers: [] });
  }
  for (const planned of plan.values()) {
    for (const s of planned.schedules) {
      if (s.kind !== "after") continue;
      const leader = plan.get(s.service);
      if (!leader) problems.push(`${planned.check.id}: after:${s.service} names no check of this agent`);
      else leader.followers.push(planned.check);
    }
  }
  const cycle = followerCycle(plan);
  if (cycle) problems.push(`run-after schedules loop: ${cycle.join(" → ")}`);
  if (problems.length)
    throw new Error(
      `configuration refused: ${problems.slice(0, 10).join("; ")}${problems.length > 10 ? ` (and ${problems.length - 10} more)` : ""}`,
    );
  return plan;
}

/** A chain of after: schedules that comes back to where it started (it would run for ever), or null. */
function followerCycle(plan: Map<string, PlannedCheck>): string[] | null {
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (id: string): string[] | null => {
    if (onPath.has(id)) return [...path.slice(path.indexOf(id)), id];
    if (done.has(id)) return null;
    onPath.add(id);
    path.push(id);
    for (const follower of plan.get(id)?.followers ?? []) {
      const cycle = visit(follower.id);
      if (cycle) return cycle;
    }
    path.pop();
    onPath.delete(id);
    done.add(id);
    return null;
  };
  for (const id of plan.keys()) {
    const cycle = visit(id);
    if (cycle) return cycle;
  }
  return null;
}

/** A cron schedule's next run, waited for in steps so that a clock set back or forward is noticed. */
interface ArmedCron {
  timer: NodeJS.Timeout | null;
}

export interface SchedulerOptions {
  /** The longest single timer a cron schedule sleeps on before looking at the clock again. */
  maxTimerMs?: number;
}

/**
 * Runs the checks of the applied configuration on their schedules. `apply` swaps configurations
 * atomically: the new plan is validated first, then every timer of the old one is stopped and
 * the new ones started; runs in flight finish and still report their results.
 */
export class Scheduler {
  private plan = new Map<string, PlannedCheck>();
  /** Interval schedules (cleared with every configuration, so what it holds is always current). */
  private readonly intervals = new IntervalWheel<PlannedCheck>((planned) => this.enqueue(planned, this.generation));
  /** Cron runs waiting out their jitter. */
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly crons = new Set<ArmedCron>();
  private readonly maxTimerMs: number;
  /** Check ids queued or running: a check never overlaps itself. */
  private readonly busy = new Set<string>();
  private readonly limiter: ConcurrencyLimiter;
  private generation = 0;

  constructor(
    concurrency: number,
    private readonly events: SchedulerEvents,
    private readonly runners: (check: AgentCheck) => CheckRunner | null,
    options: SchedulerOptions = {},
  ) {
    this.limiter = new ConcurrencyLimiter(concurrency);
    this.maxTimerMs = options.maxTimerMs ?? 60_000;
  }

  get checkCount(): number {
    return this.plan.size;
  }

  /** Interval schedules, cron jobs and jitter timers currently armed (what `stop` must bring to zero). */
  get armed(): number {
    return this.intervals.size + this.crons.size + this.timers.size;
  }

  get running(): number {
    return this.limiter.active;
  }

  /** Applies checks whose cron schedules are read in `timeZone` (the organisation's). */
  apply(checks: readonly AgentCheck[], timeZone = "UTC"): void {
    const plan = planChecks(checks, this.runners);
    const times = new Map<string, FireTimes>();
    for (const planned of plan.values())
      for (const schedule of planned.schedules)
        if (schedule.kind === "cron" && !times.has(schedule.expression)) times.set(schedule.expression, fireTimes(schedule, { timeZone })!);
    this.stop();
    this.plan = plan;
    const generation = this.generation;
    // One cron job per distinct expression, firing all its checks: parsing an expression is the
    // costly part, and fleets share a handful of expressions across thousands of checks.
    const byExpression = new Map<string, PlannedCheck[]>();
    for (const planned of plan.values()) {
      for (const schedule of planned.schedules) {
        if (schedule.kind === "interval") this.intervals.add(planned, schedule.ms, firstDelay(schedule.ms));
        if (schedule.kind !== "cron") continue;
        const sharing = byExpression.get(schedule.expression);
        if (sharing) sharing.push(planned);
        else byExpression.set(schedule.expression, [planned]);
      }
    }
    for (const [expression, checks] of byExpression) this.armCron(times.get(expression)!, checks, generation);
  }

  /** Stops every timer and forgets queued runs; runs in flight finish. */
  stop(): void {
    this.generation++;
    this.intervals.clear();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const cron of this.crons) if (cron.timer) clearTimeout(cron.timer);
    this.crons.clear();
    for (const id of this.limiter.queuedIds()) this.busy.delete(id);
    this.limiter.dropQueued();
    this.plan = new Map();
  }

  /** Runs a check now (outside its schedule); used by `after:` chains and tests. */
  trigger(checkId: string): boolean {
    const planned = this.plan.get(checkId);
    if (!planned) return false;
    this.enqueue(planned, this.generation);
    return true;
  }

  /**
   * Sleeps until the next fire time (in steps of at most maxTimerMs, re-reading the clock), runs
   * the checks, and arms the fire time after that. Runs missed while the process slept are not
   * made up: the next one is the first after now.
   */
  private armCron(times: FireTimes, checks: PlannedCheck[], generation: number): void {
    const armed: ArmedCron = { timer: null };
    this.crons.add(armed);
    const fire = () => {
      for (const planned of checks) {
        const jitter = setTimeout(() => {
          this.timers.delete(jitter);
          this.enqueue(planned, generation);
        }, firstDelay(CRON_JITTER_MS));
        this.timers.add(jitter);
      }
    };
    const waitFor = (at: number) => {
      const delay = at - Date.now();
      if (delay > 0) {
        armed.timer = setTimeout(() => waitFor(at), Math.min(delay, this.maxTimerMs));
        return;
      }
      fire();
      armFrom(Math.max(at, Date.now()));
    };
    const armFrom = (after: number) => {
      const next = times.next(after);
      if (next === null) {
        armed.timer = null;
        this.crons.delete(armed);
      } else waitFor(next);
    };
    armFrom(Date.now());
  }

  private enqueue(planned: PlannedCheck, generation: number): void {
    if (generation !== this.generation) return;
    const { check } = planned;
    if (this.busy.has(check.id)) {
      this.events.overlap(check);
      return;
    }
    this.busy.add(check.id);
    this.limiter.run(check.id, async () => {
      const controller = new AbortController();
      const timeout = setTimeout(() => controller.abort(), check.timeoutMs);
      const started = performance.now();
      try {
        const results = await planned.runner(check, controller.signal);
        this.events.results(results, check, performance.now() - started);
      } catch (error) {
        const output = (error instanceof Error ? error.message : String(error)).slice(0, 1024);
        this.events.results(
          check.items.map((item) => ({ key: item.key, ts: Date.now(), value: null, status: 3, output })),
          check,
          performance.now() - started,
        );
      } finally {
        clearTimeout(timeout);
        this.busy.delete(check.id);
      }
      if (generation === this.generation) for (const follower of planned.followers) this.trigger(follower.id);
    });
  }
}
