/** `?at=`: a moment to mark on the preview (the alert detail links here with the moment the alert fired). */
export function readMoment(params: URLSearchParams): Date | null {
  const at = params.get("at");
  const moment = at ? new Date(at) : null;
  return moment && !Number.isNaN(moment.getTime()) ? moment : null;
}
