"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { nameSchema } from "@tidemark/model";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { Pager, useKeyset } from "./keyset";
import { serverErrors } from "./use-zod-form";

const PAGE = 50;
const RUNNERS = ["shell", "bischeck", "http", "https", "postgres"] as const;
type Runner = (typeof RUNNERS)[number];

/**
 * Service items with search, filters and sort, a page at a time (keyset, so 10 000 items cost what
 * 50 do). Selected items can be given one shared threshold template at once.
 */
export function ItemsList({ serviceId }: { serviceId?: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const [policy, setPolicy] = useState<"" | "with" | "without">("");
  const [runner, setRunner] = useState<"" | Runner>("");
  const [sort, setSort] = useState<"asc" | "desc">("asc");
  // Viewers browse; only editors select items to share a threshold template.
  const me = useQuery(trpc.session.me.queryOptions());
  const canEdit = me.data?.role === "editor" || me.data?.role === "admin";
  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  const [templateName, setTemplateName] = useState("");
  const [templateSource, setTemplateSource] = useState("");
  const [templateMessage, setTemplateMessage] = useState<string | null>(null);
  const keyset = useKeyset();
  const filters = { serviceId, search: search || undefined, policy: policy || undefined, runner: runner || undefined, sort };
  const items = useQuery({
    ...trpc.config.items.list.queryOptions({ ...filters, after: keyset.after, limit: PAGE }),
    placeholderData: keepPreviousData,
  });
  const apply = useMutation(trpc.config.items.applyTemplate.mutationOptions());
  const change = (f: () => void) => {
    f();
    keyset.reset();
  };

  async function applyTemplate() {
    setTemplateMessage(null);
    const name = nameSchema.safeParse(templateName);
    if (!name.success) return setTemplateMessage(`Template name: ${name.error.issues[0]?.message}`);
    const source = await queryClient.fetchQuery(trpc.thresholds.item.queryOptions({ id: templateSource }));
    if (!source.policy) return setTemplateMessage(`${source.seriesKey} has no threshold to share.`);
    try {
      const result = await apply.mutateAsync({ name: name.data, policy: source.policy, itemIds: [...selected.keys()] });
      setTemplateMessage(`Template ${name.data} now applies to ${result.items} items.`);
      setSelected(new Map());
      await queryClient.invalidateQueries({ queryKey: trpc.config.items.list.queryKey() });
    } catch (error) {
      const s = serverErrors(error);
      setTemplateMessage(s.fields.name ?? s.form);
    }
  }

  return (
    <section className="panel" aria-label="Service items">
      <div className="panel-head filters">
        <input
          type="search"
          placeholder="Search host-service-item or exec…"
          aria-label="Search items"
          value={search}
          onChange={(e) => change(() => setSearch(e.target.value))}
        />
        <select aria-label="Threshold filter" value={policy} onChange={(e) => change(() => setPolicy(e.target.value as typeof policy))}>
          <option value="">any threshold</option>
          <option value="with">with a threshold</option>
          <option value="without">without a threshold</option>
        </select>
        <select aria-label="Runs on" value={runner} onChange={(e) => change(() => setRunner(e.target.value as typeof runner))}>
          <option value="">any runner</option>
          {RUNNERS.map((r) => (
            <option key={r} value={r}>
              {r}://
            </option>
          ))}
        </select>
        <button
          type="button"
          className="secondary"
          // The name starts with what the button shows (WCAG 2.5.3), then says what a press does.
          aria-label={`Series ${sort === "asc" ? "A→Z" : "Z→A"}: sort ${sort === "asc" ? "descending" : "ascending"}`}
          onClick={() => change(() => setSort(sort === "asc" ? "desc" : "asc"))}
        >
          Series {sort === "asc" ? "A→Z" : "Z→A"}
        </button>
      </div>
      {selected.size > 0 && (
        <fieldset className="bulk-bar" aria-label="Apply a threshold template">
          <span>{selected.size} selected · share the threshold of</span>
          <select aria-label="Template source" value={templateSource} onChange={(e) => setTemplateSource(e.target.value)}>
            <option value="">choose an item…</option>
            {[...selected].map(([id, key]) => (
              <option key={id} value={id}>
                {key}
              </option>
            ))}
          </select>
          <span>as template</span>
          <input
            aria-label="Template name"
            placeholder="template name"
            value={templateName}
            onChange={(e) => setTemplateName(e.target.value)}
          />
          <button type="button" disabled={!templateSource || apply.isPending} onClick={applyTemplate}>
            Apply to {selected.size}
          </button>
        </fieldset>
      )}
      {templateMessage && <p className="muted">{templateMessage}</p>}
      <table className="table">
        <thead>
          <tr>
            {canEdit && <th aria-label="Select" />}
            <th>Series</th>
            <th>Exec</th>
            <th>Runs on</th>
            <th>Threshold</th>
          </tr>
        </thead>
        <tbody>
          {items.data?.rows.map((i) => (
            <tr key={i.id} onClick={() => router.push(`/items/${i.id}`)}>
              {canEdit && (
                <td onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
                  <input
                    type="checkbox"
                    aria-label={`Select ${i.seriesKey}`}
                    checked={selected.has(i.id)}
                    onChange={(e) =>
                      setSelected((s) => {
                        const next = new Map(s);
                        if (e.target.checked) next.set(i.id, i.seriesKey);
                        else next.delete(i.id);
                        return next;
                      })
                    }
                  />
                </td>
              )}
              <td className="mono">
                <Link href={`/items/${i.id}`}>{i.seriesKey}</Link>
              </td>
              <td className="mono muted truncate" title={i.execStatement}>
                {i.execStatement}
              </td>
              <td className="muted">
                {i.runner}
                {i.runsNowhere && (
                  <span className="runs-nowhere" title="No active agent runs its service">
                    {" "}
                    ⚠ runs nowhere
                  </span>
                )}
              </td>
              <td>{i.policyId ? i.policyName ? `template ${i.policyName}` : "24-hour" : <span className="muted">none</span>}</td>
            </tr>
          ))}
          {items.data?.rows.length === 0 && (
            <tr>
              <td colSpan={canEdit ? 5 : 4} className="muted">
                No service items match.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <Pager keyset={keyset} next={items.data?.next} />
    </section>
  );
}
