import type { Configuration } from "@tidemark/model";
import { configurationSchema } from "@tidemark/model";
import type { HourEntry, Hours, Period, ThresholdPolicy } from "@tidemark/thresholds/policy";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exportBischeck, importBischeck } from "../src/index.ts";

/**
 * Generated configurations stay inside what Bischeck's files can carry (see index.ts): trimmed
 * text, one holiday list per file, one maxSoft per service, nullState UNKNOWN, time zone UTC,
 * per-hour levels only on hours that have a threshold, expressions that do not read as numbers.
 */
const SAFE = [..."abcXYZ019 -_.:/\"'<>&;[](),*+$%=?!{}é"];
const text = (max: number) => fc.string({ unit: fc.constantFrom(...SAFE), maxLength: max }).map((s) => s.trim());
const nonEmpty = (max: number) => text(max).filter((s) => s.length > 0);
const name = fc.stringMatching(/^[a-z][a-z0-9_.-]{0,8}$/);
const percent = fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.double({ min: 0, max: 1000, noNaN: true }));
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

const expression = fc
  .oneof(
    fc.constantFrom("avg(h-s-i[0:9])", "avg($$HOSTNAME$$-rand-number[10:19])", "h-s-i[-30M]*1.1", "if(h-s-i[0] > 5, 1, 2)"),
    nonEmpty(40),
  )
  .filter((s) => !NUMBER.test(s) && s.toLowerCase() !== "null");
const constant = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((v) => !Object.is(v, -0));
const entry: fc.Arbitrary<HourEntry> = fc.oneof(
  fc.constant(null),
  constant.map((value) => ({ kind: "constant" as const, value })),
  expression.map((source) => ({ kind: "expression" as const, source })),
);
const hours: fc.Arbitrary<Hours> = fc
  .tuple(
    fc.array(entry, { minLength: 24, maxLength: 24 }),
    fc.array(fc.option(fc.record({ warning: percent, critical: percent })), {
      minLength: 24,
      maxLength: 24,
    }),
  )
  .map(([entries, levels]) => ({
    entries,
    levels: levels.map((l, h) => (entries[h] === null ? null : l)),
  }));
const monthRule = fc
  .record({
    month: fc.option(fc.integer({ min: 1, max: 12 })),
    dayOfMonth: fc.option(fc.integer({ min: 1, max: 31 })),
  })
  .filter((r) => r.month !== null || r.dayOfMonth !== null);
const weekRule = fc
  .record({
    week: fc.option(fc.integer({ min: 1, max: 53 })),
    dayOfWeek: fc.option(fc.integer({ min: 1, max: 7 })),
  })
  .filter((r) => r.week !== null || r.dayOfWeek !== null);
const period: fc.Arbitrary<Period> = fc.record({
  months: fc.array(monthRule, { maxLength: 2 }),
  weeks: fc.array(weekRule, { maxLength: 2 }),
  calcMethod: fc.constantFrom(">", "<", "="),
  warning: percent,
  critical: percent,
  hours,
});
const mmdd = fc
  .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
  .map(([m, d]) => `${m}`.padStart(2, "0") + `${d}`.padStart(2, "0"));
const holidays = fc.array(
  fc.record({
    year: fc.integer({ min: 1970, max: 9999 }),
    days: fc.array(mmdd, { maxLength: 4 }),
  }),
  { maxLength: 2 },
);

const item = fc.record({
  description: text(30),
  execStatement: nonEmpty(60),
  thresholdClass: fc.option(fc.constantFrom("Twenty4HourThreshold", "com.example.Custom")),
  serviceItemClass: fc.option(fc.constantFrom("CheckCommandServiceItem", "CalculateOnCache", "Random")),
  cacheMaxCount: fc.option(fc.integer({ min: 1, max: 1_000_000 })),
  periods: fc.option(fc.array(period, { minLength: 1, maxLength: 3 })),
});
const service = fc.record({
  description: text(30),
  schedules: fc.array(fc.constantFrom("5S", "30S", "5M", "1H", "0 15 10 ? * MON-FRI", "after:host0-rand"), { minLength: 1, maxLength: 3 }),
  url: fc.constantFrom("shell://localhost", "bischeck://cache", "https://example.com/health", "postgres://db/x"),
  sendServiceData: fc.boolean(),
  maxSoft: fc.integer({ min: 1, max: 100 }),
  items: fc.uniqueArray(fc.tuple(name, item), {
    maxLength: 3,
    selector: ([n]) => n,
  }),
});
const host = fc.record({
  alias: fc.option(text(20)),
  description: text(30),
  services: fc.uniqueArray(fc.tuple(name, service), {
    maxLength: 3,
    selector: ([n]) => n,
  }),
});

const configuration: fc.Arbitrary<Configuration> = fc
  .tuple(
    fc.uniqueArray(fc.tuple(name, host), {
      maxLength: 3,
      selector: ([n]) => n,
    }),
    holidays,
  )
  .map(([hosts, fileHolidays]) =>
    configurationSchema.parse({
      hosts: hosts.map(([hostName, h]) => ({
        name: hostName,
        alias: h.alias,
        description: h.description,
        services: h.services.map(([serviceName, s]) => ({
          name: serviceName,
          description: s.description,
          schedules: s.schedules,
          url: s.url,
          sendServiceData: s.sendServiceData,
          items: s.items.map(([itemName, i]) => ({
            name: itemName,
            description: i.description,
            execStatement: i.execStatement,
            thresholdClass: i.thresholdClass,
            serviceItemClass: i.serviceItemClass,
            cacheMaxCount: i.cacheMaxCount,
            policy:
              i.periods === null
                ? null
                : ({
                    periods: i.periods,
                    holidays: fileHolidays,
                    nullState: "UNKNOWN",
                    maxSoft: s.maxSoft,
                    timeZone: "UTC",
                  } satisfies ThresholdPolicy),
          })),
        })),
      })),
    }),
  );

describe("export then import is the identity on Bischeck-representable configurations", () => {
  it("importBischeck(exportBischeck(c)).configuration equals c", () => {
    fc.assert(
      fc.property(configuration, (c) => {
        const exported = exportBischeck(c);
        expect(exported.warnings).toEqual([]);
        const back = importBischeck(exported);
        expect(back.configuration).toEqual(c);
        // the template info of a re-import reproduces the same export
        expect(exportBischeck(back.configuration, { templates: back.templates }).bischeckXml).toBe(exported.bischeckXml);
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});
