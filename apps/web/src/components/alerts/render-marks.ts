/**
 * User Timing mark set once per page when the timeline has first drawn the lanes of its data:
 * `npm run bench -- timeline-render` reads it to time navigation → fully drawn.
 */
export const TIMELINE_DRAWN_MARK = "tidemark:timeline-drawn";

/**
 * Set once per page when the list of the window's alerts below the lanes has first rendered with
 * them: it renders after the lanes have drawn, and the benchmark reports both.
 */
export const ALERT_LIST_RENDERED_MARK = "tidemark:alert-list-rendered";
