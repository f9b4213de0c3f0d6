"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { FieldChangeLine } from "~/components/deploy/diff-summary";
import { useTRPC } from "~/trpc/react";

/** Says plainly whether the saved threshold is what the worker evaluates, and what differs (deployed → draft). */
export function DeploymentStatus({ itemId }: { itemId: string }) {
  const trpc = useTRPC();
  const status = useQuery({ ...trpc.thresholds.deployment.queryOptions({ id: itemId }), refetchInterval: 10_000 });
  const s = status.data;
  if (!s) return null;
  if (s.status === "not-deployed")
    return (
      <p className="draft-status differs" data-testid="draft-status">
        Nothing is deployed yet: this threshold is a draft until you <Link href="/deploy">deploy</Link>.
      </p>
    );
  if (!s.differs)
    return (
      <p className="draft-status" data-testid="draft-status">
        The saved threshold is deployed (version {s.version}): it is what the worker evaluates.
      </p>
    );
  return (
    <div className="draft-status differs" data-testid="draft-status">
      <p>
        {s.inDeployment
          ? `Draft differs from deployed version ${s.version}: the worker still evaluates the deployed one.`
          : `This item is not in deployed version ${s.version}: the worker does not evaluate it yet.`}{" "}
        <Link href="/deploy">Deploy</Link> to make the draft run.
      </p>
      {s.changes.length > 0 && (
        <ul className="deploy-diff mono">
          {s.changes.map((c) => (
            <FieldChangeLine key={c.field} change={c} />
          ))}
        </ul>
      )}
    </div>
  );
}
