/**
 * Bischeck writes "run after service h-s" as the bare service key in `<schedule>`; Tidemark's
 * model writes it `after:h-s`. Intervals (`5S`) and Quartz cron expressions are the same in both.
 */
const INTERVAL = /^\d+[SMH]$/;

export function fromBischeckSchedule(text: string): string {
  if (INTERVAL.test(text) || text.startsWith("after:") || /\s/.test(text)) return text;
  return /^\S+-\S+$/.test(text) ? `after:${text}` : text;
}

export function toBischeckSchedule(schedule: string): string {
  return schedule.startsWith("after:") ? schedule.slice("after:".length) : schedule;
}
