export { countAlerts, type Levels, rateRange, type TimedSample } from "./alerts.ts";
export { type Bounds, type DeclaredBounds, lineRange, resolveBounds } from "./bounds.ts";
export { type AggregateBucket, type ExpectedAlerts, fitSuggestion, type SuggestInput, type Suggestion } from "./fit.ts";
export { fitProfile, type Profile, type Sample } from "./profile.ts";
export { roundSignificant, roundWithin } from "./round.ts";
export { coveredWeeks } from "./samples.ts";
export { chooseSeasonality, SEASONALITIES, type Seasonality, type SeasonalityEvidence } from "./seasonality.ts";
export { mad, median, quantileSorted } from "./stats.ts";
