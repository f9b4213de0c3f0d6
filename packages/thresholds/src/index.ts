export {
  type AlertSpan,
  type AlertState,
  type BacktestInput,
  type BacktestResult,
  type BacktestSeries,
  type BacktestSummary,
  backtest,
} from "./backtest.ts";
export { type DateFacts, dateFacts, type LocalTime, localTime } from "./calendar.ts";
export { type CurveInput, MAX_CURVE_POINTS, type ThresholdCurve, thresholdCurve } from "./curve.ts";
export { type EvaluateThresholdInput, evaluateThreshold, type NoThresholdReason, type ThresholdResult } from "./evaluate.ts";
export { type HardStateStep, type HardStateTrack, INITIAL_HARD_STATE, nextHardState } from "./hard-state.ts";
export type { ThresholdContext } from "./hours.ts";
export { type PeriodRule, type PeriodSelection, selectPeriod, selectPeriodForDate } from "./period.ts";
export * from "./policy.ts";
export {
  CHART_BUCKETS,
  type ChartPoint,
  downsample,
  MAX_SPANS,
  type PolicyOutcome,
  type PreviewResolution,
  type PreviewSamples,
  policyOutcome,
  policyReferences,
  previewResolution,
  RAW_WINDOW_MS,
  referenceLookbackMs,
} from "./preview.ts";
export { type Boundaries, boundaries, classify, explain, formatNumber } from "./states.ts";
