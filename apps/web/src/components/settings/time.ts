/** A timestamp as the viewer's local date and time, to the minute. */
export function when(date: Date | string | null): string {
  if (date === null) return "never";
  return new Date(date).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
