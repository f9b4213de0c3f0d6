"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { Pager, useKeyset } from "./keyset";

const PAGE = 50;

/** Services of the organisation, or of one host. */
export function ServicesList({ hostId }: { hostId?: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [search, setSearch] = useState("");
  const keyset = useKeyset();
  const services = useQuery({
    ...trpc.config.services.list.queryOptions({ hostId, search: search || undefined, after: keyset.after, limit: PAGE }),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="panel" aria-label="Services">
      <div className="panel-head">
        <h2>Services</h2>
        <input
          type="search"
          placeholder="Search host-service or URL…"
          aria-label="Search services"
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
            <th>Service</th>
            <th>Connection URL</th>
            <th>Schedule</th>
            <th className="num">Items</th>
          </tr>
        </thead>
        <tbody>
          {services.data?.rows.map((s) => (
            <tr key={s.id} onClick={() => router.push(`/config/services/${s.id}`)}>
              <td className="mono">
                <Link href={`/config/services/${s.id}`}>
                  {s.host}-{s.name}
                </Link>
              </td>
              <td className="mono muted">{s.url}</td>
              <td className="mono">{s.schedules.join(", ")}</td>
              <td className="num">{s.items}</td>
            </tr>
          ))}
          {services.data?.rows.length === 0 && (
            <tr>
              <td colSpan={4} className="muted">
                No services.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <Pager keyset={keyset} next={services.data?.next} />
    </section>
  );
}
