/**
 * A schedule that cannot be read. `position` is the 0-based offset in the text as given (the
 * character the problem starts at), so that a form can point at it; the message says it 1-based,
 * for people.
 */
export class ScheduleError extends Error {
  constructor(
    readonly reason: string,
    readonly position: number,
  ) {
    super(`${reason} (at character ${position + 1})`);
    this.name = "ScheduleError";
  }
}
