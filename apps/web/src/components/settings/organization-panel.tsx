"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "~/trpc/react";
import "./settings.css";

/** Every IANA zone the browser knows, for the picker (the server checks the choice again). */
const ZONES: string[] = typeof Intl.supportedValuesOf === "function" ? ["UTC", ...Intl.supportedValuesOf("timeZone")] : ["UTC"];

/** The organisation's time zone: cron schedules are read in it by the worker and, from the next deployment, by agents. */
export function OrganizationPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.organizations.settings.queryOptions());
  const [zone, setZone] = useState("");
  useEffect(() => {
    if (settings.data) setZone(settings.data.timeZone);
  }, [settings.data]);
  const save = useMutation(
    trpc.organizations.setTimeZone.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.organizations.settings.queryKey() }),
    }),
  );
  return (
    <section className="panel" aria-label="Organisation">
      <h2>Time zone</h2>
      <p className="muted">
        Cron schedules (<span className="mono">0 15 10 ? * MON-FRI</span>) are read in this zone by the worker at once, and by agents from
        the next deployment.
      </p>
      <form
        className="settings-form"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ timeZone: zone });
        }}
      >
        <input aria-label="Time zone" list="time-zones" value={zone} onChange={(e) => setZone(e.target.value)} />
        <datalist id="time-zones">
          {ZONES.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <button type="submit" disabled={save.isPending || zone.trim() === "" || zone === settings.data?.timeZone}>
          Save
        </button>
      </form>
      {save.isSuccess && <p className="muted">Saved.</p>}
      {save.error && <p className="error">{save.error.message}</p>}
    </section>
  );
}
