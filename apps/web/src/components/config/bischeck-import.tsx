"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { downloadText } from "~/lib/download";
import { useTRPC } from "~/trpc/react";
import { AgentSelect } from "./agent-select";
import "./config.css";

/** Upload bischeck.xml and 24thresholds.xml, see what would be created, then confirm. */
export function BischeckImport() {
  const trpc = useTRPC();
  const [bischeckXml, setBischeckXml] = useState<string | null>(null);
  const [thresholdsXml, setThresholdsXml] = useState<string | null>(null);
  const [propertiesXml, setPropertiesXml] = useState<string | null>(null);
  const [otherFiles, setOtherFiles] = useState<string[]>([]);
  const [directoryProblem, setDirectoryProblem] = useState<string | null>(null);
  const preview = useMutation(trpc.bischeck.previewImport.mutationOptions());
  const commit = useMutation(trpc.bischeck.commitImport.mutationOptions());
  const exported = useQuery({ ...trpc.bischeck.export.queryOptions(), enabled: false });
  const [rules, setRules] = useState<{ hostPattern: string; agentId: string | null }[]>([]);
  const agentRules = rules.flatMap((r) =>
    r.agentId && r.hostPattern.trim() ? [{ hostPattern: r.hostPattern.trim(), agentId: r.agentId }] : [],
  );
  const files = bischeckXml
    ? { bischeckXml, thresholdsXml: thresholdsXml ?? undefined, propertiesXml: propertiesXml ?? undefined, agentRules, otherFiles }
    : null;
  const setRule = (index: number, rule: Partial<(typeof rules)[number]>) => {
    setRules((all) => all.map((r, i) => (i === index ? { ...r, ...rule } : r)));
    preview.reset();
  };

  /** A whole Bischeck etc/ directory: bischeck.xml and 24thresholds.xml are read, the other files named in the preview. */
  async function chooseDirectory(list: FileList | null) {
    const chosen = [...(list ?? [])].filter((f) => f.name.endsWith(".xml") && !f.webkitRelativePath.split("/").slice(1, -1).length);
    const bischeck = chosen.find((f) => f.name === "bischeck.xml");
    const thresholds = chosen.find((f) => f.name === "24thresholds.xml");
    const properties = chosen.find((f) => f.name === "properties.xml");
    setDirectoryProblem(bischeck ? null : "The directory has no bischeck.xml.");
    setBischeckXml(bischeck ? await bischeck.text() : null);
    setThresholdsXml(thresholds ? await thresholds.text() : null);
    setPropertiesXml(properties ? await properties.text() : null);
    setOtherFiles(chosen.filter((f) => f !== bischeck && f !== thresholds && f !== properties).map((f) => f.name));
    preview.reset();
    commit.reset();
  }
  const p = preview.data;

  return (
    <div className="stack">
      <section className="panel" aria-label="Import from Bischeck">
        <div className="panel-head">
          <h2>Import from Bischeck</h2>
        </div>
        <div className="import-files">
          <label className="field">
            <span>A Bischeck configuration directory (etc/)</span>
            <input
              type="file"
              multiple
              aria-label="Bischeck directory"
              {...{ webkitdirectory: "", directory: "" }}
              onChange={(e) => chooseDirectory(e.target.files)}
            />
          </label>
          <span className="muted">or the files one by one:</span>
          <label className="field">
            <span>bischeck.xml</span>
            <input
              type="file"
              accept=".xml,text/xml"
              aria-label="bischeck.xml"
              onChange={async (e) => {
                setBischeckXml((await e.target.files?.[0]?.text()) ?? null);
                preview.reset();
                commit.reset();
              }}
            />
          </label>
          <label className="field">
            <span>24thresholds.xml (optional)</span>
            <input
              type="file"
              accept=".xml,text/xml"
              aria-label="24thresholds.xml"
              onChange={async (e) => {
                setThresholdsXml((await e.target.files?.[0]?.text()) ?? null);
                preview.reset();
                commit.reset();
              }}
            />
          </label>
          <button type="button" disabled={!files || preview.isPending} onClick={() => files && preview.mutate(files)}>
            Preview import
          </button>
        </div>
        <fieldset className="import-rules" aria-label="Agents for the imported hosts">
          <legend>Which agent runs the imported hosts (first matching rule; * matches anything)</legend>
          {rules.map((rule, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rules have no identity but their position
            <div key={index} className="assign-bar">
              <input
                aria-label={`Host pattern ${index + 1}`}
                placeholder="web*"
                value={rule.hostPattern}
                onChange={(e) => setRule(index, { hostPattern: e.target.value })}
              />
              <AgentSelect label={`Agent of rule ${index + 1}`} value={rule.agentId} onChange={(agentId) => setRule(index, { agentId })} />
              <button type="button" className="secondary" onClick={() => setRules((all) => all.filter((_, i) => i !== index))}>
                Remove
              </button>
            </div>
          ))}
          <button type="button" className="secondary" onClick={() => setRules((all) => [...all, { hostPattern: "*", agentId: null }])}>
            Add a host → agent rule
          </button>
        </fieldset>
        {directoryProblem && <p className="error">{directoryProblem}</p>}
        {preview.isError && <p className="error">{preview.error.message}</p>}
        {p && !p.ok && (
          <div role="alert">
            <p className="error">Nothing can be imported: {p.issues.length} problem(s) in the files.</p>
            <table className="table">
              <thead>
                <tr>
                  <th>File</th>
                  <th>Line:col</th>
                  <th>Element</th>
                  <th>Problem</th>
                </tr>
              </thead>
              <tbody>
                {p.issues.map((i) => (
                  <tr key={`${i.file}:${i.line}:${i.column}:${i.message}`}>
                    <td className="mono">{i.file}</td>
                    <td className="mono">
                      {i.line}:{i.column}
                    </td>
                    <td className="mono">&lt;{i.element}&gt;</td>
                    <td>{i.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {p?.ok && !commit.data && (
          <section className="import-preview" aria-label="Import preview">
            <p>
              Will create <strong>{p.counts.hosts} hosts</strong>, <strong>{p.counts.services} services</strong>,{" "}
              <strong>{p.counts.items} service items</strong> and <strong>{p.counts.policies} threshold policies</strong>.
            </p>
            <p className="import-fates">
              Services: <strong>{p.fates.kept} kept</strong> (run as in Bischeck), <strong>{p.fates.mapped} mapped</strong> (run by another
              check), <strong>{p.fates.disabled} disabled</strong> (kept, not run).
            </p>
            {p.changedServices.length > 0 && (
              <table className="table" aria-label="Mapped and disabled services">
                <thead>
                  <tr>
                    <th>Service</th>
                    <th>Fate</th>
                    <th>URL</th>
                  </tr>
                </thead>
                <tbody>
                  {p.changedServices.map((c) => (
                    <tr key={`${c.host}-${c.service}`}>
                      <td className="mono">
                        {c.host}-{c.service}
                      </td>
                      <td>{c.fate}</td>
                      <td className="mono">
                        {c.url}
                        {c.from ? ` (was ${c.from})` : ""}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {p.notes.length > 0 && (
              <ul aria-label="Files not read">
                {p.notes.map((n) => (
                  <li key={n} className="muted">
                    {n}
                  </li>
                ))}
              </ul>
            )}
            {p.existingHosts.length > 0 && p.existingServices.length === 0 && (
              <p className="muted">These hosts exist already and receive the new services: {p.existingHosts.join(", ")}.</p>
            )}
            {p.existingServices.length > 0 && (
              <p className="error">
                These services exist already, so nothing can be imported: {p.existingServices.join(", ")}. Rename or delete them first.
              </p>
            )}
            {p.warnings.length > 0 && (
              <details>
                <summary>{p.warnings.length} warning(s): imported with a loss or skipped</summary>
                <ul>
                  {p.warnings.map((w) => (
                    <li key={w}>{w}</li>
                  ))}
                </ul>
              </details>
            )}
            <ul className="import-tree">
              {p.hosts.map((h) => (
                <li key={h.name}>
                  <span className="mono">{h.name}</span>
                  <ul>
                    {h.services.map((s) => (
                      <li key={s.name}>
                        <span className="mono">{s.name}</span>{" "}
                        <span className="muted">
                          {s.url} · {s.schedules.join(", ")} ·{" "}
                        </span>
                        {s.runsOn === null ? <span className="runs-nowhere">⚠ runs nowhere</span> : <span>runs on {s.runsOn}</span>}
                        <ul>
                          {s.items.map((i) => (
                            <li key={i.name} className="mono">
                              {i.name} {i.hasPolicy ? <span className="muted">· 24-hour threshold</span> : null}
                            </li>
                          ))}
                        </ul>
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
            <button
              type="button"
              disabled={commit.isPending || p.existingServices.length > 0}
              onClick={() => files && commit.mutate(files)}
            >
              {commit.isPending ? "Importing…" : "Confirm import"}
            </button>
            {commit.isError && <p className="error">{commit.error.message}</p>}
          </section>
        )}
        {commit.data && (
          <p role="status">
            Imported {commit.data.hosts} new hosts
            {commit.data.existingHosts > 0 ? ` (and services into ${commit.data.existingHosts} existing)` : ""}, {commit.data.services}{" "}
            services, {commit.data.items} items and {commit.data.policies} threshold policies.{" "}
            <Link href="/config/hosts">See the hosts</Link>.
          </p>
        )}
      </section>

      <section className="panel" aria-label="Export to Bischeck">
        <div className="panel-head">
          <h2>Export to Bischeck</h2>
          {/* One button, one file: a click that starts two downloads is blocked or asked about by browsers. */}
          <div className="export-buttons">
            {(
              [
                ["bischeck.xml", "bischeckXml"],
                ["24thresholds.xml", "thresholdsXml"],
              ] as const
            ).map(([file, field]) => (
              <button
                key={file}
                type="button"
                disabled={exported.isFetching}
                onClick={async () => {
                  const data = exported.data ?? (await exported.refetch()).data;
                  if (data) downloadText(file, data[field], "application/xml");
                }}
              >
                Download {file}
              </button>
            ))}
          </div>
        </div>
        {exported.isError && <p className="error">{exported.error.message}</p>}
        {exported.data && (
          <p className="muted">
            Exported {exported.data.counts.hosts} hosts, {exported.data.counts.services} services, {exported.data.counts.items} items.
            {exported.data.warnings.length > 0 &&
              ` ${exported.data.warnings.length} warning(s): ${exported.data.warnings.slice(0, 3).join("; ")}`}
          </p>
        )}
      </section>
    </div>
  );
}
