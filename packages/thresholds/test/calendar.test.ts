import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { localTime } from "../src/index.ts";

/** An independent oracle: Swedish locale prints "2024-03-31 03:00:00", easy to take apart. */
function reference(timeZone: string, at: number) {
  const [date, time] = new Date(at).toLocaleString("sv-SE", { timeZone, hour12: false }).split(" ") as [string, string];
  const [year, month, day] = date.split("-").map(Number);
  const [hour, minute, second] = time.split(":").map(Number);
  return { year, month, day, hour, minute, msInMinute: (second as number) * 1000 + (at % 1000) };
}

describe("localTime", () => {
  it.each(["UTC", "Europe/Stockholm", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"])(
    "agrees with Intl for instants in any order, across DST changes (%s)",
    (zone) => {
      const around = [Date.UTC(2024, 2, 31, 0, 0), Date.UTC(2024, 9, 27, 0, 0), Date.UTC(2024, 3, 7, 15, 0), Date.UTC(2024, 10, 3, 5, 0)];
      fc.assert(
        fc.property(fc.constantFrom(...around), fc.integer({ min: -4 * 3_600_000, max: 4 * 3_600_000 }), (base, delta) => {
          const at = base + delta;
          expect(localTime(zone, at)).toEqual(reference(zone, at));
        }),
        { numRuns: 500 },
      );
    },
  );
});
