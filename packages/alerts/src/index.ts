export { DEFAULT_RETRY_POLICY, type RetryPolicy, retryDelayMs } from "./backoff.ts";
export { DEFAULT_FLAP_SETTINGS, FLAP_HISTORY, type FlapSettings, nextFlapping, percentStateChange } from "./flapping.ts";
export {
  AGENT_SILENT_AFTER_MS,
  agentHeartbeatItem,
  agentHeartbeatKey,
  agentIdleReason,
  agentSilentReason,
  agentSilentSince,
  DEFAULT_STALE_AFTER_INTERVALS,
  type ItemFreshness,
  itemFreshness,
  staleAt,
  staleReason,
} from "./freshness.ts";
export { clearsRecoveryMargin } from "./hysteresis.ts";
export {
  type AlertSettings,
  type AlertStep,
  type AlertTrack,
  type AlertTransition,
  type AlertTransitionKind,
  DEFAULT_ALERT_SETTINGS,
  EMPTY_TRACK,
  type OpenAlert,
  runAlertMachine,
  stepAlert,
} from "./machine.ts";
export {
  type AlertMemoryLookup,
  type AlertPlan,
  type AlertPlanSummary,
  type ItemIdLookup,
  NO_NOTIFICATION_CONTEXT,
  type NotificationContext,
  type NotificationNeeds,
  type NotificationPlanOptions,
  notificationNeeds,
  type PlannedAlert,
  type PlannedDelivery,
  type PlannedEvent,
  type PlannedTrack,
  planNotifications,
  runSeriesMachines,
  type SeriesAlertMemory,
  type SeriesRun,
  seriesToLoad,
} from "./notification-plan.ts";
export type { EvaluationOutcome } from "./outcome.ts";
export {
  DEFAULT_STATE_SOURCE,
  itemState,
  PLUGIN_MAX_SOFT,
  pluginExplanation,
  pluginState,
  STALE_STATUS,
  STATE_SOURCES,
  type StateSource,
} from "./plugin-state.ts";
export { emailMessage, type PostableAlert, postableAlerts, receiverRequest, slackMessage } from "./receiver-messages.ts";
export {
  RETIRED_SERIES_KEPT_MS,
  type RetiredSeries,
  type RetiredSeriesAction,
  removedItemReason,
  retireAlert,
  retiredSeriesAction,
  retirementOutcome,
  retirementRuns,
  revokedAgentReason,
} from "./retirement.ts";
export {
  ALERTMANAGER_RESEND_SECONDS,
  type NotificationAction,
  notificationAction,
  RECEIVER_KINDS,
  type ReceiverFields,
  type ReceiverKind,
  type ReceiverMatchers,
  type ReceiverPolicy,
  receiverFieldsSchema,
  receiverKindSchema,
  receiverMatchersSchema,
  receiverPolicy,
  receiverProblem,
  receiverWants,
  repeatDue,
  repeatIntervalSeconds,
} from "./routing.ts";
export { type ItemAlertSettings, itemAlertSettingsSchema, machineSettings } from "./settings.ts";
export { severityRank, worseOf } from "./severity.ts";
export {
  matchersCover,
  matchesGlob,
  type SilenceMatchers,
  type SilenceWindow,
  silenceCovers,
  silenceMatchersSchema,
} from "./silences.ts";
export {
  decodeTimeline,
  encodeTimeline,
  stateOfLetter,
  type Timeline,
  type TimelineAlert,
  type TimelineChange,
  type TimelineLane,
} from "./timeline.ts";
export { nameFilterGlob, shownLanes, timelineLanes } from "./timeline-lanes.ts";
export { type AlertmanagerWebhook, alertLabels, alertmanagerPayload, fingerprint, type NotifiedAlert } from "./webhook-payload.ts";
