"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { CreatePanel } from "./create-panel";
import { CloneButton, ConfirmButton } from "./dialogs";
import { ItemForm } from "./item-form";
import { ItemsList } from "./items-list";
import { ServiceForm } from "./service-form";

export function ServiceDetail({ serviceId }: { serviceId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const service = useQuery(trpc.config.services.get.queryOptions({ id: serviceId }));
  const update = useMutation(trpc.config.services.update.mutationOptions());
  const remove = useMutation(trpc.config.services.delete.mutationOptions());
  const clone = useMutation(trpc.config.services.clone.mutationOptions());
  const createItem = useMutation(trpc.config.items.create.mutationOptions());
  const [saved, setSaved] = useState(false);

  if (service.isError) return <p className="error">{service.error.message}</p>;
  if (!service.data) return <p className="muted">Loading…</p>;
  const s = service.data;

  return (
    <div className="stack">
      <header className="detail-head">
        <div>
          <nav className="breadcrumb muted">
            <Link href="/config/hosts">Hosts</Link> / <Link href={`/config/hosts/${s.hostId}`}>{s.host}</Link>
          </nav>
          <h1 className="mono">
            {s.host}-{s.fields.name}
          </h1>
        </div>
        <div className="actions">
          <CloneButton
            what="service"
            initialName={s.fields.name}
            onClone={async (name) => router.push(`/config/services/${(await clone.mutateAsync({ id: serviceId, name })).id}`)}
          />
          <ConfirmButton
            label="Delete service"
            question={`Delete service ${s.host}-${s.fields.name} and its items? Their stored history is kept.`}
            onConfirm={async () => {
              await remove.mutateAsync({ id: serviceId });
              router.push(`/config/hosts/${s.hostId}`);
            }}
          />
        </div>
      </header>
      <section className="panel" aria-label="Service settings">
        <ServiceForm
          key={JSON.stringify([s.fields, s.agentId])}
          initial={s.fields}
          initialAgentId={s.agentId}
          submitLabel="Save service"
          onSubmit={async (fields, agentId) => {
            setSaved(false);
            await update.mutateAsync({ id: serviceId, fields, agentId: fields.url.startsWith("bischeck://") ? null : agentId });
            await queryClient.invalidateQueries({ queryKey: trpc.config.services.get.queryKey({ id: serviceId }) });
            setSaved(true);
          }}
        />
        {saved && <p className="muted">Saved.</p>}
      </section>
      <CreatePanel label="Add item" title={`New item on ${s.host}-${s.fields.name}`}>
        <ItemForm
          submitLabel="Create item"
          onSubmit={async (fields) => {
            const item = await createItem.mutateAsync({ serviceId, fields, policy: null });
            router.push(`/items/${item.id}`);
          }}
        />
      </CreatePanel>
      <ItemsList serviceId={serviceId} />
    </div>
  );
}
