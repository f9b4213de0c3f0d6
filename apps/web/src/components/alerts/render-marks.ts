/**
 * User Timing mark set once per page when the timeline has first drawn the lanes of its data:
 * `npm run bench -- timeline-render` reads it to time navigation → fully drawn.
 */
export const TIMELINE_DRAWN_MARK = "tidemark:timeline-drawn";
