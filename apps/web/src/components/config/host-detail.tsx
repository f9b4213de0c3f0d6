"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { CreatePanel } from "./create-panel";
import { CloneButton, ConfirmButton } from "./dialogs";
import { HostForm } from "./host-form";
import { ServiceForm } from "./service-form";
import { ServicesList } from "./services-list";

export function HostDetail({ hostId }: { hostId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const host = useQuery(trpc.config.hosts.get.queryOptions({ id: hostId }));
  const update = useMutation(trpc.config.hosts.update.mutationOptions());
  const remove = useMutation(trpc.config.hosts.delete.mutationOptions());
  const clone = useMutation(trpc.config.hosts.clone.mutationOptions());
  const createService = useMutation(trpc.config.services.create.mutationOptions());
  const [saved, setSaved] = useState(false);

  if (host.isError) return <p className="error">{host.error.message}</p>;
  if (!host.data) return <p className="muted">Loading…</p>;
  const h = host.data;

  return (
    <div className="stack">
      <header className="detail-head">
        <div>
          <nav className="breadcrumb muted">
            <Link href="/config/hosts">Hosts</Link>
          </nav>
          <h1 className="mono">{h.name}</h1>
        </div>
        <div className="actions">
          <CloneButton
            what="host"
            initialName={h.name}
            onClone={async (name) => router.push(`/config/hosts/${(await clone.mutateAsync({ id: hostId, name })).id}`)}
          />
          <ConfirmButton
            label="Delete host"
            question={`Delete host ${h.name} with all its services and items? Their stored history is kept.`}
            onConfirm={async () => {
              await remove.mutateAsync({ id: hostId });
              router.push("/config/hosts");
            }}
          />
        </div>
      </header>
      <section className="panel" aria-label="Host settings">
        <HostForm
          key={h.updatedAt.toString()}
          initial={{ name: h.name, alias: h.alias, description: h.description }}
          submitLabel="Save host"
          onSubmit={async (fields) => {
            setSaved(false);
            await update.mutateAsync({ id: hostId, fields });
            await queryClient.invalidateQueries({ queryKey: trpc.config.hosts.get.queryKey({ id: hostId }) });
            setSaved(true);
          }}
        />
        {saved && <p className="muted">Saved.</p>}
      </section>
      <CreatePanel label="Add service" title={`New service on ${h.name}`}>
        <ServiceForm
          submitLabel="Create service"
          onSubmit={async (fields, agentId) => {
            const service = await createService.mutateAsync({ hostId, fields, agentId });
            router.push(`/config/services/${service.id}`);
          }}
        />
      </CreatePanel>
      <ServicesList hostId={hostId} />
    </div>
  );
}
