import { describe, expect, it } from "vitest";
import { exportBischeck, importBischeck } from "../src/index.ts";
import { hourList, miniBischeck, thresholdsFor } from "./fixtures.ts";

const c = (value: number) => ({ kind: "constant", value });
const e = (source: string) => ({ kind: "expression", source });

function policyOf(thresholdsXml: string, bischeckXml = miniBischeck) {
  const result = importBischeck({ bischeckXml, thresholdsXml });
  return {
    ...result,
    policy: result.configuration.hosts[0]?.services[0]?.items[0]?.policy,
  };
}

describe("hour entries", () => {
  it("24 <hour>s: numbers are constants, null/empty are null, anything else an expression", () => {
    const values = ["1000", " 2.5 ", "null", "", "NULL", "-3e2", "avg(h-s-i[0:9])", "h-s-i[0]*1.1", ...Array(16).fill("7")];
    const { policy } = policyOf(thresholdsFor(hourList(values)));
    expect(policy?.periods[0]?.hours.entries.slice(0, 9)).toEqual([
      c(1000),
      c(2.5),
      null,
      null,
      null,
      c(-300),
      e("avg(h-s-i[0:9])"),
      e("h-s-i[0]*1.1"),
      c(7),
    ]);
    expect(policy?.periods[0]?.hours.levels).toEqual(Array(24).fill(null));
  });

  it("intervals: inclusive, later wins, uncovered null, per-interval levels completed with the period's", () => {
    const hours = `
    <hourinterval><from>00:00</from><to>23:00</to><threshold>10</threshold></hourinterval>
    <hourinterval><from>06:00</from><to>08:00</to><threshold>20</threshold><warning>15</warning></hourinterval>
    <hourinterval><from>08:00</from><to>09:00</to><threshold>30</threshold><warning>1</warning><critical>2</critical></hourinterval>
    <hourinterval><from>22:00</from><to>23:00</to><threshold>null</threshold><warning>5</warning></hourinterval>`;
    const { policy } = policyOf(thresholdsFor(hours));
    const hoursOut = policy?.periods[0]?.hours;
    expect(hoursOut?.entries).toEqual([...Array(6).fill(c(10)), c(20), c(20), c(30), c(30), ...Array(12).fill(c(10)), null, null]);
    expect(hoursOut?.levels[6]).toEqual({ warning: 15, critical: 30 });
    expect(hoursOut?.levels[8]).toEqual({ warning: 1, critical: 2 });
    expect(hoursOut?.levels[10]).toBeNull();
    expect(hoursOut?.levels[22]).toBeNull();
  });
});

describe("which definition an item gets", () => {
  const group = (template: string) => `
  <servicedefgroup>
    <member><hostname>h</hostname><servicename>s</servicename><serviceitemname>i</serviceitemname></member>
    <member><hostname>h</hostname><servicename>s</servicename><serviceitemname>gone</serviceitemname></member>
    <template>${template}</template>
  </servicedefgroup>
  <servicedeftemplate templatename="T">
    <period><calcmethod>=</calcmethod><warning>1</warning><critical>2</critical><hoursIDREF>1</hoursIDREF></period>
  </servicedeftemplate>`;

  it("a servicedef wins over a servicedefgroup membership; template names match case-insensitively", () => {
    const xml = thresholdsFor("<hour>1</hour>".repeat(24)).replace("<hours ", `${group("t")}\n  <hours `);
    const { policy, warnings } = policyOf(xml);
    expect(policy?.periods[0]?.calcMethod).toBe(">");
    expect(warnings).toEqual([
      expect.stringMatching(/servicedefgroup member for h-s-i is ignored: line 3 already defines it/),
      expect.stringMatching(/h-s-gone is not a service item in bischeck.xml/),
    ]);
  });

  it("a group member gets the template's periods", () => {
    const xml = `<twenty4threshold>${group("T")}<hours hoursID="1">${"<hour>5</hour>".repeat(24)}</hours></twenty4threshold>`;
    const { policy, templates } = policyOf(xml);
    expect(policy?.periods[0]).toMatchObject({
      calcMethod: "=",
      warning: 1,
      critical: 2,
    });
    expect(templates.thresholdTemplates[0]?.members).toEqual([{ host: "h", service: "s", item: "i" }]);
  });
});

describe("bischeck.xml templates, overrides and Bischeck elements", () => {
  const bischeckXml = `<?xml version="1.0"?>
<bischeck>
  <host>
    <name>web1</name>
    <inactive>false</inactive>
    <alias>10.0.0.1</alias>
    <service>
      <template>tcp</template>
      <serviceoverride>
        <name>https</name>
        <schedule>0 0/5 * * * ?</schedule>
        <sendserver>false</sendserver>
      </serviceoverride>
    </service>
    <service>
      <name>calc</name>
      <schedule>web1-https</schedule>
      <url>bischeck://cache</url>
      <state><maxsoft>5</maxsoft></state>
      <serviceitem>
        <template>avgitem</template>
        <serviceitemoverride><desc>overridden</desc></serviceitemoverride>
        <execstatement>avg(web1-https-time[0:4])</execstatement>
      </serviceitem>
      <serviceitem>
        <name>plain</name>
        <execstatement>1</execstatement>
        <cache><template>keep50</template></cache>
      </serviceitem>
    </service>
  </host>
  <servicetemplate templatename="tcp">
    <name>tcp</name>
    <desc>tcp check</desc>
    <schedule>1M</schedule>
    <url>shell://localhost</url>
    <serviceitem>
      <name>time</name>
      <execstatement>check_tcp -H $$HOSTNAME$$</execstatement>
      <serviceitemclass>CheckCommandServiceItem</serviceitemclass>
    </serviceitem>
  </servicetemplate>
  <serviceitemtemplate templatename="avgitem">
    <name>avg</name>
    <desc>template desc</desc>
    <execstatement>avg(x-y-z[0:9])</execstatement>
    <thresholdclass>Twenty4HourThreshold</thresholdclass>
    <serviceitemclass>CalculateOnCache</serviceitemclass>
    <cache><purge><maxcount>10</maxcount></purge></cache>
  </serviceitemtemplate>
  <cachetemplate templatename="keep50"><purge><maxcount>50</maxcount></purge></cachetemplate>
</bischeck>`;
  const thresholdsXml = `<twenty4threshold><servicedef><hostname>web1</hostname><servicename>calc</servicename><serviceitemname>avg</serviceitemname>
    <period><calcmethod>&lt;</calcmethod><warning>10</warning><critical>20</critical><hoursIDREF>1</hoursIDREF></period></servicedef>
    <hours hoursID="1">${"<hour>5</hour>".repeat(24)}</hours></twenty4threshold>`;

  const result = importBischeck({ bischeckXml, thresholdsXml });
  const [https, calc] = result.configuration.hosts[0]?.services ?? [];

  it("applies serviceoverride fields over the servicetemplate", () => {
    expect(result.configuration.hosts[0]).toMatchObject({
      name: "web1",
      alias: "10.0.0.1",
    });
    expect(https).toMatchObject({
      name: "https",
      description: "tcp check",
      schedules: ["0 0/5 * * * ?"],
      url: "shell://localhost",
      sendServiceData: false,
    });
    expect(https?.items[0]?.execStatement).toBe("check_tcp -H $$HOSTNAME$$");
  });

  it("applies serviceitemoverride and sibling fields over the serviceitemtemplate; resolves cachetemplates", () => {
    expect(calc?.items[0]).toMatchObject({
      name: "avg",
      description: "overridden",
      execStatement: "avg(web1-https-time[0:4])",
      thresholdClass: "Twenty4HourThreshold",
      cacheMaxCount: 10,
    });
    expect(calc?.items[1]).toMatchObject({
      name: "plain",
      cacheMaxCount: 50,
      serviceItemClass: null,
    });
  });

  it("reads 'run after' schedules and the service's maxsoft", () => {
    expect(calc?.schedules).toEqual(["after:web1-https"]);
    expect(calc?.items[0]?.policy?.maxSoft).toBe(5);
  });

  it("round-trips, re-using the templates that still fit", () => {
    const exported = exportBischeck(result.configuration, {
      templates: result.templates,
    });
    expect(exported.bischeckXml).toContain("<schedule>web1-https</schedule>");
    expect(exported.bischeckXml).toContain("<maxsoft>5</maxsoft>");
    expect(exported.bischeckXml).toContain('<serviceitemtemplate templatename="avgitem">');
    expect(importBischeck(exported).configuration).toEqual(result.configuration);
  });

  it("decodes predefined entities, character references and CDATA", () => {
    const xml = miniBischeck.replace("check_x", "a &amp;&amp; b &#60;&#x3E; <![CDATA[<raw> & ]]>tail");
    const item = importBischeck({ bischeckXml: xml }).configuration.hosts[0]?.services[0]?.items[0];
    expect(item?.execStatement).toBe("a && b <> <raw> & tail");
  });
});
