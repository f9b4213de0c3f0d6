export { ScheduleError } from "./error.ts";
export { type FireTimes, fireTimes } from "./fire-times.ts";
export { type DayOfMonth, type DayOfWeek, parseQuartz, type QuartzFields } from "./quartz.ts";
export { assertTimeZone, cronerPatterns, isTimeZone, QuartzCron } from "./quartz-cron.ts";
export { intervalMs, parseSchedule, type Schedule, scheduleProblem } from "./schedule.ts";
