"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTRPC } from "~/trpc/react";
import "./settings.css";

const NEW_ORGANIZATION = "__new__";

/** The top bar's organisation switcher: every query is about the active organisation, so switching drops them all. */
export function OrgSwitcher({ activeOrganizationId }: { activeOrganizationId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const organizations = useQuery(trpc.organizations.list.queryOptions());
  const afterChange = () => {
    queryClient.clear();
    router.push("/");
    router.refresh();
  };
  const switchTo = useMutation(trpc.organizations.switch.mutationOptions({ onSuccess: afterChange }));
  const create = useMutation(trpc.organizations.create.mutationOptions({ onSuccess: afterChange }));

  return (
    <select
      className="org-switcher"
      aria-label="Organisation"
      value={activeOrganizationId}
      disabled={switchTo.isPending || create.isPending}
      onChange={(event) => {
        const value = event.target.value;
        if (value === NEW_ORGANIZATION) {
          const name = window.prompt("Name of the new organisation")?.trim();
          if (name) create.mutate({ name });
          return;
        }
        switchTo.mutate({ organizationId: value });
      }}
    >
      {(organizations.data ?? []).map((o) => (
        <option key={o.id} value={o.id}>
          {o.name} ({o.role})
        </option>
      ))}
      {!organizations.data && <option value={activeOrganizationId}>…</option>}
      <option value={NEW_ORGANIZATION}>+ New organisation…</option>
    </select>
  );
}
