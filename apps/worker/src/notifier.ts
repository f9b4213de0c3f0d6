import { DEFAULT_RETRY_POLICY, type RetryPolicy, retryDelayMs } from "@tidemark/alerts";
import { claimDueDeliveries, type Database, type DueDelivery, recordDeliveryAttempt } from "@tidemark/db";
import { type DestinationPolicy, destinationPolicyFromEnv, outboundRequest, RefusedDestinationError } from "@tidemark/outbound";

/** The subset of pino's logger the notifier writes to. */
export interface NotifierLog {
  info(event: object, message: string): void;
  warn(event: object, message: string): void;
  error(event: object, message: string): void;
}

export interface NotifierOptions {
  log: NotifierLog;
  pollIntervalMs?: number;
  batchSize?: number;
  requestTimeoutMs?: number;
  retry?: RetryPolicy;
  /** Which addresses webhooks may reach; the installation's (TIDEMARK_OUTBOUND_ALLOWED_RANGES) unless given. */
  destinations?: DestinationPolicy;
}

/** Receivers answering 4xx will answer the same to the same body, except for these. */
const RETRYABLE_CLIENT_ERRORS = new Set([408, 425, 429]);

/** Where a delivery went, without the path and query (webhook URLs often carry secrets there). */
function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "invalid URL";
  }
}

async function post(
  url: string,
  payload: unknown,
  timeoutMs: number,
  destinations: DestinationPolicy,
): Promise<{ ok: true; status: number } | { ok: false; error: string; permanent: boolean }> {
  try {
    const { status } = await outboundRequest(
      url,
      {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "Tidemark-Notifier" },
        body: JSON.stringify(payload),
        timeoutMs,
      },
      destinations,
    );
    if (status >= 200 && status < 300) return { ok: true, status };
    const permanent = status >= 400 && status < 500 && !RETRYABLE_CLIENT_ERRORS.has(status);
    return { ok: false, error: `HTTP ${status}`, permanent };
  } catch (error) {
    // A refused destination (loopback, private, link-local) stays refused: no retry.
    if (error instanceof RefusedDestinationError) return { ok: false, error: error.message, permanent: true };
    const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    return { ok: false, error: cause, permanent: false };
  }
}

async function deliver(
  db: Database,
  delivery: DueDelivery,
  opts: Required<Omit<NotifierOptions, "log">> & { log: NotifierLog },
): Promise<void> {
  const attempt = delivery.attempts + 1;
  const event = { delivery: delivery.id, webhook: origin(delivery.url), attempt };
  if (!delivery.webhookEnabled) {
    await recordDeliveryAttempt(db, delivery.id, { outcome: "failed", error: "webhook disabled" });
    opts.log.warn(event, "webhook disabled; delivery dropped");
    return;
  }
  const started = performance.now();
  const result = await post(delivery.url, delivery.payload, opts.requestTimeoutMs, opts.destinations);
  const ms = Math.round(performance.now() - started);
  if (result.ok) {
    await recordDeliveryAttempt(db, delivery.id, { outcome: "delivered", at: new Date() });
    opts.log.info({ ...event, status: result.status, ms }, "webhook delivered");
    return;
  }
  const delay = result.permanent ? null : retryDelayMs(attempt, opts.retry);
  if (delay === null) {
    await recordDeliveryAttempt(db, delivery.id, { outcome: "failed", error: result.error });
    opts.log.error({ ...event, error: result.error, ms }, "webhook delivery failed for good");
    return;
  }
  await recordDeliveryAttempt(db, delivery.id, { outcome: "retry", error: result.error, nextAttemptAt: new Date(Date.now() + delay) });
  opts.log.warn({ ...event, error: result.error, ms, retryInMs: delay }, "webhook attempt failed; will retry");
}

/**
 * Delivers queued notifications to their webhooks: claims due rows (leased, so several workers
 * can run this), posts each, and records the result; failures are retried with exponential
 * backoff until the retry policy gives up. Returns a function that stops the loop after the batch
 * in hand.
 */
export function startNotifier(db: Database, options: NotifierOptions): () => Promise<void> {
  const opts = {
    pollIntervalMs: 1000,
    batchSize: 20,
    requestTimeoutMs: 10_000,
    retry: DEFAULT_RETRY_POLICY,
    destinations: options.destinations ?? destinationPolicyFromEnv(),
    ...options,
  };
  // A claimed row is left alone for longer than a send can take.
  const leaseMs = opts.requestTimeoutMs * 2 + 5_000;
  let stopping = false;
  let wake: (() => void) | null = null;

  async function loop(): Promise<void> {
    while (!stopping) {
      let claimed = 0;
      try {
        const due = await claimDueDeliveries(db, { limit: opts.batchSize, leaseMs });
        claimed = due.length;
        await Promise.all(
          due.map((d) =>
            deliver(db, d, opts).catch((error: unknown) =>
              opts.log.error({ delivery: d.id, err: error }, "recording a delivery attempt failed"),
            ),
          ),
        );
      } catch (error) {
        opts.log.error({ err: error }, "claiming notification deliveries failed");
      }
      // A full batch means more may be due: go again at once.
      if (claimed === opts.batchSize || stopping) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, opts.pollIntervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  }

  const running = loop();
  return async () => {
    stopping = true;
    (wake as (() => void) | null)?.();
    await running;
  };
}
