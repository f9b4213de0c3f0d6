import {
  ALERTMANAGER_RESEND_SECONDS,
  type AlertmanagerWebhook,
  DEFAULT_RETRY_POLICY,
  emailMessage,
  type RetryPolicy,
  receiverRequest,
  retryDelayMs,
} from "@tidemark/alerts";
import { claimDueDeliveries, type DueDelivery, queueRepeats, recordDeliveryAttempt } from "@tidemark/db/alerts";
import type { Database } from "@tidemark/db/client";
import {
  type DestinationPolicy,
  destinationPolicyFromEnv,
  outboundRequest,
  outboundSocket,
  RefusedDestinationError,
} from "@tidemark/outbound";
import nodemailer, { type Transporter } from "nodemailer";

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
  /** How often firing alerts are looked at for a repeat (and Alertmanager's resend). */
  repeatCheckMs?: number;
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

async function post(url: string, payload: unknown, timeoutMs: number, destinations: DestinationPolicy): Promise<SendResult> {
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

type SendResult = { ok: true; status: number } | { ok: false; error: string; permanent: boolean };

/** SMTP transports by destination policy and URL, reused across deliveries (nodemailer pools nothing unless asked). */
const transportsByPolicy = new WeakMap<DestinationPolicy, Map<string, Transporter>>();

/** Email through SMTP: the receiver's URL is the server (`smtp://user:pass@host:port`, `smtps://…`). */
async function sendEmail(
  delivery: DueDelivery,
  payload: AlertmanagerWebhook,
  timeoutMs: number,
  destinations: DestinationPolicy,
): Promise<SendResult> {
  if (!delivery.emailTo) return { ok: false, error: "the email receiver has no recipients", permanent: true };
  const transports = transportsByPolicy.get(destinations) ?? new Map<string, Transporter>();
  transportsByPolicy.set(destinations, transports);
  let transport = transports.get(delivery.url);
  if (!transport) {
    const server = new URL(delivery.url);
    const host = server.hostname.replace(/^\[|\]$/g, "");
    const port = Number(server.port) || (server.protocol === "smtps:" ? 465 : 25);
    transport = nodemailer.createTransport({
      host,
      port,
      secure: server.protocol === "smtps:",
      auth: server.username ? { user: decodeURIComponent(server.username), pass: decodeURIComponent(server.password) } : undefined,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      // The same destination rule as for webhooks: the name resolved here, every address and the
      // connected one checked (nodemailer then speaks SMTP, and TLS with the host's name, on it).
      getSocket: (_options, callback) => {
        outboundSocket(host, port, destinations, timeoutMs).then(
          (connection) => callback(null, { connection }),
          (error: Error) => callback(error),
        );
      },
    });
    transports.set(delivery.url, transport);
  }
  const message = emailMessage(payload);
  try {
    await transport.sendMail({
      from: delivery.emailFrom ?? "tidemark@localhost",
      to: delivery.emailTo,
      subject: message.subject,
      text: message.text,
    });
    return { ok: true, status: 250 };
  } catch (error) {
    if (error instanceof RefusedDestinationError) return { ok: false, error: error.message, permanent: true };
    const code = (error as { responseCode?: number }).responseCode;
    // 5xx SMTP replies are permanent refusals (unknown mailbox, rejected sender); the rest may pass later.
    return { ok: false, error: error instanceof Error ? error.message : String(error), permanent: code !== undefined && code >= 500 };
  }
}

function send(delivery: DueDelivery, timeoutMs: number, destinations: DestinationPolicy): Promise<SendResult> {
  const payload = delivery.payload as AlertmanagerWebhook;
  if (delivery.kind === "email") return sendEmail(delivery, payload, timeoutMs, destinations);
  const kind = delivery.kind === "alertmanager" || delivery.kind === "slack" ? delivery.kind : "webhook";
  const request = receiverRequest(kind, delivery.url, payload, new Date(), ALERTMANAGER_RESEND_SECONDS);
  return post(request.url, request.body, timeoutMs, destinations);
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
  const result = await send(delivery, opts.requestTimeoutMs, opts.destinations);
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
    repeatCheckMs: 5_000,
    ...options,
  };
  let repeatsCheckedAt = 0;
  // A claimed row is left alone for longer than a send can take.
  const leaseMs = opts.requestTimeoutMs * 2 + 5_000;
  let stopping = false;
  let wake: (() => void) | null = null;

  async function loop(): Promise<void> {
    while (!stopping) {
      let claimed = 0;
      if (Date.now() - repeatsCheckedAt >= opts.repeatCheckMs) {
        repeatsCheckedAt = Date.now();
        try {
          const queued = await queueRepeats(db, new Date());
          if (queued > 0) opts.log.info({ queued }, "repeats of firing alerts queued");
        } catch (error) {
          opts.log.error({ err: error }, "queueing repeats failed");
        }
      }
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
