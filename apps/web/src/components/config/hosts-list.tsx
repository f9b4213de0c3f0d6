"use client";

import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { CreatePanel } from "./create-panel";
import { HostForm } from "./host-form";
import { Pager, useKeyset } from "./keyset";

const PAGE = 50;

export function HostsList() {
  const trpc = useTRPC();
  const router = useRouter();
  const [search, setSearch] = useState("");
  const keyset = useKeyset();
  const hosts = useQuery({
    ...trpc.config.hosts.list.queryOptions({ search: search || undefined, after: keyset.after, limit: PAGE }),
    placeholderData: keepPreviousData,
  });
  const create = useMutation(trpc.config.hosts.create.mutationOptions());
  return (
    <div className="stack">
      <CreatePanel label="New host" title="New host">
        <HostForm
          submitLabel="Create host"
          onSubmit={async (fields) => {
            const host = await create.mutateAsync(fields);
            router.push(`/config/hosts/${host.id}`);
          }}
        />
      </CreatePanel>
      <section className="panel">
        <div className="panel-head">
          <input
            type="search"
            placeholder="Search hosts…"
            aria-label="Search hosts"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              keyset.reset();
            }}
          />
        </div>
        <table className="table">
          <thead>
            <tr>
              <th>Host</th>
              <th>Alias</th>
              <th>Description</th>
              <th className="num">Services</th>
              <th className="num">Items</th>
            </tr>
          </thead>
          <tbody>
            {hosts.data?.rows.map((h) => (
              <tr key={h.id} onClick={() => router.push(`/config/hosts/${h.id}`)}>
                <td className="mono">
                  <Link href={`/config/hosts/${h.id}`}>{h.name}</Link>
                </td>
                <td className="muted">{h.alias ?? ""}</td>
                <td className="muted">{h.description}</td>
                <td className="num">{h.services}</td>
                <td className="num">{h.items}</td>
              </tr>
            ))}
            {hosts.data?.rows.length === 0 && (
              <tr>
                <td colSpan={5} className="muted">
                  No hosts match.
                </td>
              </tr>
            )}
          </tbody>
        </table>
        <Pager keyset={keyset} next={hosts.data?.next} />
      </section>
    </div>
  );
}
