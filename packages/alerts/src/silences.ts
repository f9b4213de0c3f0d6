import { splitSeriesKey } from "@tidemark/expr";
import { z } from "zod";

const pattern = z.string().trim().min(1).max(200).default("*");

/** Which series a silence covers: glob patterns on the names, `*` matching any run of characters. */
export const silenceMatchersSchema = z.object({ host: pattern, service: pattern, item: pattern });
export type SilenceMatchers = z.infer<typeof silenceMatchersSchema>;

export interface SilenceWindow {
  matchers: SilenceMatchers;
  startsAt: Date;
  endsAt: Date;
}

/** Case-sensitive, whole-string: `web*` matches `web01`, not `aweb01`; only `*` is special. */
export function matchesGlob(glob: string, text: string): boolean {
  const parts = glob.split("*");
  if (parts.length === 1) return glob === text;
  const first = parts[0] as string;
  const last = parts[parts.length - 1] as string;
  if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let position = first.length;
  const end = text.length - last.length;
  for (const middle of parts.slice(1, -1)) {
    const found = text.indexOf(middle, position);
    if (found < 0 || found + middle.length > end) return false;
    position = found + middle.length;
  }
  return true;
}

export function matchersCover(matchers: SilenceMatchers, key: string): boolean {
  const names = splitSeriesKey(key);
  if (!names) return false;
  return matchesGlob(matchers.host, names.host) && matchesGlob(matchers.service, names.service) && matchesGlob(matchers.item, names.item);
}

/** Active from startsAt (inclusive) to endsAt (exclusive). */
export function silenceCovers(silence: SilenceWindow, key: string, at: Date): boolean {
  const t = at.getTime();
  return t >= silence.startsAt.getTime() && t < silence.endsAt.getTime() && matchersCover(silence.matchers, key);
}
