"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { RoleSelect } from "./role-select";
import type { RoleName } from "./roles";
import { SecretOnce } from "./secret-once";
import "./settings.css";
import { when } from "./time";

/** API tokens for scripts: created (shown once), listed by prefix with last use, revoked. */
export function TokensPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tokens = useQuery(trpc.tokens.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() });
  const [name, setName] = useState("");
  const [role, setRole] = useState<RoleName>("viewer");
  const [secret, setSecret] = useState<string | null>(null);
  const create = useMutation(
    trpc.tokens.create.mutationOptions({
      onSuccess: (created) => {
        setSecret(created.secret);
        setName("");
        void refresh();
      },
    }),
  );
  const revoke = useMutation(trpc.tokens.revoke.mutationOptions({ onSuccess: () => void refresh() }));
  const origin = typeof window === "undefined" ? "" : window.location.origin;

  return (
    <div className="stack">
      {secret && (
        <>
          <SecretOnce title="New API token" secret={secret} testId="api-token" onDone={() => setSecret(null)} />
          <p className="muted mono">
            curl -H &quot;Authorization: Bearer {secret}&quot; {origin}/api/trpc/dashboard.overview
          </p>
        </>
      )}
      <section className="panel" aria-label="API tokens">
        <div className="panel-head">
          <h2>API tokens</h2>
          <form
            className="settings-form"
            onSubmit={(e) => {
              e.preventDefault();
              create.mutate({ name: name.trim(), role });
            }}
          >
            <input
              aria-label="Token name"
              placeholder="what uses it, e.g. ci-deploy"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
            <RoleSelect label="Token role" value={role} onChange={setRole} />
            <button type="submit" disabled={create.isPending || name.trim() === ""}>
              Create token
            </button>
          </form>
        </div>
        <p className="muted">
          A token acts in this organisation only, with its role but never more than yours: if you leave or are demoted, so is the token.
        </p>
        {(create.error ?? revoke.error) && <p className="error">{(create.error ?? revoke.error)?.message}</p>}
        {tokens.data && tokens.data.length === 0 && <p className="muted">No API tokens.</p>}
        {tokens.data && tokens.data.length > 0 && (
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Token</th>
                <th>Role</th>
                <th>Created</th>
                <th>Last used</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((t) => (
                <tr key={t.id} className={t.revokedAt ? "muted" : undefined}>
                  <td>{t.name}</td>
                  <td className="mono">{t.prefix}…</td>
                  <td>{t.role}</td>
                  <td>{when(t.createdAt)}</td>
                  <td>{when(t.lastUsedAt)}</td>
                  <td className="settings-actions">
                    {t.revokedAt ? (
                      <span>revoked {when(t.revokedAt)}</span>
                    ) : (
                      <button
                        type="button"
                        className="settings-secondary danger"
                        disabled={revoke.isPending}
                        onClick={() => {
                          if (window.confirm(`Revoke token ${t.name}? Scripts using it stop working at once.`)) revoke.mutate({ id: t.id });
                        }}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
