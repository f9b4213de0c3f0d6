"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/trpc/react";

/** The organisation's active agents as a select; "" means no agent (a calculation, or unassigned). */
export function AgentSelect({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string | null;
  onChange: (agentId: string | null) => void;
}) {
  const trpc = useTRPC();
  const agents = useQuery(trpc.agents.list.queryOptions());
  return (
    <select aria-label={label} value={value ?? ""} onChange={(e) => onChange(e.target.value === "" ? null : e.target.value)}>
      <option value="">no agent (runs nowhere)</option>
      {agents.data
        ?.filter((a) => a.revokedAt === null)
        .map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
    </select>
  );
}
