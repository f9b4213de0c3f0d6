/**
 * Told how many points a request stored. The ingest handlers count nothing themselves: the process
 * serving them owns its metrics (the web process counts them on its /metrics, by source).
 */
export type PointsStored = (points: number) => void;
