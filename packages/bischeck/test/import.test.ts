import { describe, expect, it } from "vitest";
import { importBischeck } from "../src/index.ts";
import { benchmark, sample } from "./fixtures.ts";

const expr = (source: string) => ({ kind: "expression", source });

describe("importBischeck on Bischeck's sample configuration", () => {
  const { configuration, warnings } = importBischeck(sample);
  const host = configuration.hosts[0];
  const service = host?.services[0];
  const item = service?.items[0];
  const policy = item?.policy;

  it("reads host, service and item", () => {
    expect(configuration.hosts).toHaveLength(1);
    expect(host).toMatchObject({
      name: "localhost",
      alias: null,
      description: "My localhost",
    });
    expect(service).toMatchObject({
      name: "sshport",
      description: "Monitor the ssh port response time",
      schedules: ["5S"],
      url: "shell://localhost",
      sendServiceData: true,
    });
    expect(item).toMatchObject({
      name: "response",
      description: "Response time for tcp check",
      execStatement: '{"check":"/usr/lib/nagios/plugins/check_tcp -H localhost -p 22","label":"time"}',
      thresholdClass: "Twenty4HourThreshold",
      serviceItemClass: "CheckCommandServiceItem",
      cacheMaxCount: null,
    });
    expect(warnings).toEqual([]);
  });

  it("reads the first period: day of month 1 and day of week 2, <, W 10, C 30, hours 1", () => {
    const period = policy?.periods[0];
    expect(period?.months).toEqual([{ month: null, dayOfMonth: 1 }]);
    expect(period?.weeks).toEqual([{ week: null, dayOfWeek: 2 }]);
    expect(period).toMatchObject({
      calcMethod: "<",
      warning: 10,
      critical: 30,
    });
    const avg = expr("avg(localhost-sshport-response[1],localhost-sshport-response[2])");
    expect(period?.hours.entries).toEqual(Array.from({ length: 24 }, (_, h) => (h >= 8 && h <= 18 ? avg : null)));
    expect(period?.hours.levels).toEqual(Array(24).fill(null));
  });

  it("reads the second period (two weeks rules, hours 2 with two intervals) and the default period", () => {
    expect(policy?.periods).toHaveLength(3);
    const [, second, third] = policy?.periods ?? [];
    expect(second?.months).toEqual([]);
    expect(second?.weeks).toEqual([
      { week: null, dayOfWeek: 4 },
      { week: null, dayOfWeek: 6 },
    ]);
    const sum = expr("sum(localhost-sshport-response[1],localhost-sshport-response[2])/2");
    const avg10 = expr("avg(localhost-sshport-response[0:9])");
    expect(second?.hours.entries).toEqual(
      Array.from({ length: 24 }, (_, h) => (h >= 8 && h <= 13 ? sum : h >= 15 && h <= 17 ? avg10 : null)),
    );
    expect(third).toMatchObject({
      months: [],
      weeks: [],
      calcMethod: "<",
      warning: 5,
      critical: 20,
    });
    expect(third?.hours).toEqual(policy?.periods[0]?.hours);
  });

  it("gives the policy the file's holidays (2013, 13 days) and the defaults", () => {
    expect(policy?.holidays).toEqual([
      {
        year: 2013,
        days: ["0101", "0106", "0422", "0424", "0425", "0501", "0602", "0606", "0612", "0625", "1105", "1225", "1226"],
      },
    ]);
    expect(policy).toMatchObject({
      nullState: "UNKNOWN",
      maxSoft: 3,
      timeZone: "UTC",
    });
  });
});

describe("importBischeck on Bischeck's benchmark configuration (templates)", () => {
  const { configuration, templates, warnings } = importBischeck(benchmark);
  const host = configuration.hosts[0];

  it("expands the service templates", () => {
    expect(host).toMatchObject({
      name: "host0",
      alias: "127.0.0.1",
      description: "",
    });
    expect(host?.services.map((s) => [s.name, s.url, s.schedules])).toEqual([
      ["rand", "shell://localhost", ["5S"]],
      ["avgrand", "bischeck://localhost", ["5S"]],
    ]);
    expect(host?.services[0]?.items[0]).toEqual({
      name: "number",
      description: "random number between 0-10",
      execStatement: "10.0",
      thresholdClass: "Twenty4HourThreshold",
      serviceItemClass: "Random",
      cacheMaxCount: 1000,
      policy: null,
    });
    expect(host?.services[1]?.items[0]?.execStatement).toBe("avg($$HOSTNAME$$-rand-number[0:9])");
  });

  it("expands the servicedeftemplate to host0-avgrand-avg: > 5/10, hours 00..23 an expression with the macro kept", () => {
    const policy = host?.services[1]?.items[0]?.policy;
    expect(policy?.periods).toHaveLength(1);
    expect(policy?.periods[0]).toMatchObject({
      months: [],
      weeks: [],
      calcMethod: ">",
      warning: 5,
      critical: 10,
    });
    expect(policy?.periods[0]?.hours.entries).toEqual(Array(24).fill(expr("avg($$HOSTNAME$$-rand-number[10:19])")));
    expect(policy?.holidays).toEqual([{ year: 2013, days: [] }]);
  });

  it("remembers the templates each object came from", () => {
    expect(templates.serviceTemplates.map((t) => [t.name, t.uses])).toEqual([
      ["randtemplate", [{ host: "host0", service: "rand" }]],
      ["avgrandtemplate", [{ host: "host0", service: "avgrand" }]],
    ]);
    expect(templates.thresholdTemplates.map((t) => [t.name, t.members])).toEqual([
      ["randthreshold", [{ host: "host0", service: "avgrand", item: "avg" }]],
    ]);
  });

  it("warns about the cache aggregates it does not import", () => {
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^bischeck\.xml:29: <aggregate>/);
  });
});
