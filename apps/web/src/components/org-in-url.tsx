"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect } from "react";
import { useTRPC } from "~/trpc/react";

/**
 * The organisation in every URL (`?org=<slug>`), so that a link says whose data it shows. The
 * active organisation is written into the address when it is missing; a link into another
 * organisation of the user's offers the switch, and one into an organisation they are not in
 * says so plainly (the page under it finds nothing of that organisation's anyway).
 */
export function OrgInUrl({ active }: { active: { id: string; slug: string; name: string } }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const pathname = usePathname();
  const params = useSearchParams();
  const wanted = params.get("org");
  const organizations = useQuery({ ...trpc.session.organizations.queryOptions(), enabled: wanted !== null && wanted !== active.slug });
  const switchTo = useMutation(
    trpc.organizations.switch.mutationOptions({
      onSuccess: () => {
        queryClient.clear();
        router.refresh();
      },
    }),
  );

  useEffect(() => {
    if (wanted !== null) return;
    const next = new URLSearchParams(globalThis.location.search);
    next.set("org", active.slug);
    globalThis.history.replaceState(globalThis.history.state, "", `${pathname}?${next}${globalThis.location.hash}`);
  }, [wanted, active.slug, pathname]);

  if (wanted === null || wanted === active.slug) return null;
  const target = organizations.data?.find((o) => o.slug === wanted);
  if (!organizations.data) return null;
  return (
    <div className="org-mismatch" role="alert">
      {target ? (
        <>
          <span>
            This link is for <strong>{target.name}</strong>; you are working in <strong>{active.name}</strong>.
          </span>
          <button type="button" disabled={switchTo.isPending} onClick={() => switchTo.mutate({ organizationId: target.id })}>
            Switch to {target.name}
          </button>
        </>
      ) : (
        <span>Not found: this link is for an organisation you are not a member of.</span>
      )}
    </div>
  );
}
