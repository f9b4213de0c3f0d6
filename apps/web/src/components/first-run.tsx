"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { agentCommand } from "~/lib/agent-command";
import { useTRPC } from "~/trpc/react";

/**
 * An organisation without service items: instead of an empty table, the three ways in —
 * import a Bischeck configuration, connect a collector agent, or add a host by hand.
 */
export function FirstRun({ organizationEmpty }: { organizationEmpty: boolean }) {
  const trpc = useTRPC();
  const me = useQuery(trpc.session.me.queryOptions());
  const isAdmin = me.data?.role === "admin";
  const canEdit = isAdmin || me.data?.role === "editor";
  const [agentName, setAgentName] = useState("collector-1");
  const [copied, setCopied] = useState(false);
  const create = useMutation(trpc.agents.create.mutationOptions());
  const command = create.data && typeof window !== "undefined" ? agentCommand(window.location.origin, create.data.token) : null;

  return (
    <section className="panel first-run" aria-labelledby="first-run-title">
      <h2 id="first-run-title">{organizationEmpty ? "Nothing monitored here yet" : "No service items yet"}</h2>
      <p className="muted">Three ways to start{canEdit ? "" : " (an editor or admin of this organisation takes them)"}:</p>
      <div className="doors">
        <article className="door">
          <h3>1 · Import a Bischeck configuration</h3>
          <p className="muted">Upload bischeck.xml (and 24thresholds.xml): hosts, services, items and thresholds come over as they are.</p>
          {canEdit && (
            <Link className="button-link" href="/import" prefetch={false}>
              Import bischeck.xml
            </Link>
          )}
        </article>
        <article className="door">
          <h3>2 · Connect an agent</h3>
          <p className="muted">A collector runs the checks where they must run and sends the results here.</p>
          {isAdmin && !create.data && (
            <form
              className="door-form"
              onSubmit={(e) => {
                e.preventDefault();
                if (agentName.trim()) create.mutate({ name: agentName.trim() });
              }}
            >
              <label>
                Agent name
                <input value={agentName} onChange={(e) => setAgentName(e.target.value)} />
              </label>
              <button type="submit" disabled={create.isPending}>
                Create its token
              </button>
            </form>
          )}
          {create.error && <p className="error">{create.error.message}</p>}
          {command && (
            <div className="door-command">
              <p>Run this where the agent should collect (the token is shown only now):</p>
              <code className="mono" data-testid="agent-command">
                {command}
              </code>
              <button
                type="button"
                onClick={async () => {
                  await navigator.clipboard?.writeText(command).catch(() => {});
                  setCopied(true);
                }}
              >
                {copied ? "Copied" : "Copy the command"}
              </button>
            </div>
          )}
          {!isAdmin && <p className="muted">An admin creates agent tokens.</p>}
        </article>
        <article className="door">
          <h3>3 · Add a host by hand</h3>
          <p className="muted">Create a host, give it a service and the items it measures, then tune their thresholds.</p>
          {canEdit && (
            <Link className="button-link" href="/config/hosts" prefetch={false}>
              Add a host
            </Link>
          )}
        </article>
      </div>
    </section>
  );
}
