"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { RoleSelect } from "./role-select";
import { ROLE_HELP, ROLES, type RoleName } from "./roles";
import { SecretOnce } from "./secret-once";
import "./settings.css";
import { when } from "./time";

/** Members (change role, remove) and invitations by link, for admins. */
export function MembersPanel({ currentUserId }: { currentUserId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const members = useQuery(trpc.members.list.queryOptions());
  const invitations = useQuery(trpc.invitations.list.queryOptions());
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.members.list.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.invitations.list.queryKey() }),
    ]);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<RoleName>("viewer");
  const [link, setLink] = useState<string | null>(null);
  const changeRole = useMutation(trpc.members.changeRole.mutationOptions({ onSettled: () => void refresh() }));
  const remove = useMutation(trpc.members.remove.mutationOptions({ onSuccess: () => void refresh() }));
  const invite = useMutation(
    trpc.invitations.create.mutationOptions({
      onSuccess: (created) => {
        setLink(`${window.location.origin}${created.path}`);
        setEmail("");
        void refresh();
      },
    }),
  );
  const revoke = useMutation(trpc.invitations.revoke.mutationOptions({ onSuccess: () => void refresh() }));
  const error = changeRole.error ?? remove.error ?? invite.error ?? revoke.error;

  return (
    <div className="stack">
      {link && <SecretOnce title="Invitation link" secret={link} testId="invitation-link" onDone={() => setLink(null)} />}
      {error && (
        <p className="error" role="alert">
          {error.message}
        </p>
      )}
      <section className="panel" aria-label="Members">
        <div className="panel-head">
          <h2>Members</h2>
        </div>
        <table className="table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Role</th>
              <th>Joined</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(members.data ?? []).map((m) => (
              <tr key={m.userId}>
                <td>
                  {m.name}
                  {m.userId === currentUserId && <span className="muted"> (you)</span>}
                </td>
                <td className="mono">{m.email}</td>
                <td>
                  <RoleSelect
                    label={`Role of ${m.email}`}
                    value={m.role}
                    disabled={changeRole.isPending}
                    onChange={(role) => changeRole.mutate({ userId: m.userId, role })}
                  />
                </td>
                <td>{when(m.joinedAt)}</td>
                <td className="settings-actions">
                  <button
                    type="button"
                    className="settings-secondary danger"
                    disabled={remove.isPending}
                    onClick={() => {
                      if (window.confirm(`Remove ${m.email} from this organisation? Their sessions here end now.`))
                        remove.mutate({ userId: m.userId });
                    }}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section className="panel" aria-label="Invitations">
        <div className="panel-head">
          <h2>Invitations</h2>
          <form
            className="settings-form"
            onSubmit={(e) => {
              e.preventDefault();
              invite.mutate({ email: email.trim(), role });
            }}
          >
            <input
              type="email"
              required
              aria-label="Email to invite"
              placeholder="colleague@example.com"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            <RoleSelect label="Role of the invitee" value={role} onChange={setRole} />
            <button type="submit" disabled={invite.isPending || email.trim() === ""}>
              Create invitation link
            </button>
          </form>
        </div>
        <p className="muted">
          The link is shown once and works once, for that address only, for 7 days. Roles:{" "}
          {ROLES.map((r) => `${r} ${ROLE_HELP[r]}`).join("; ")}.
        </p>
        {invitations.data && invitations.data.length === 0 && <p className="muted">No invitations.</p>}
        {invitations.data && invitations.data.length > 0 && (
          <table className="table">
            <thead>
              <tr>
                <th>Email</th>
                <th>Role</th>
                <th>Sent</th>
                <th>Status</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {invitations.data.map((i) => {
                const expired = !i.acceptedAt && new Date(i.expiresAt).getTime() < Date.now();
                return (
                  <tr key={i.id} className={i.acceptedAt || expired ? "muted" : undefined}>
                    <td className="mono">{i.email}</td>
                    <td>{i.role}</td>
                    <td>{when(i.createdAt)}</td>
                    <td>{i.acceptedAt ? `accepted ${when(i.acceptedAt)}` : expired ? "expired" : `pending until ${when(i.expiresAt)}`}</td>
                    <td className="settings-actions">
                      {!i.acceptedAt && (
                        <button
                          type="button"
                          className="settings-secondary danger"
                          disabled={revoke.isPending}
                          onClick={() => revoke.mutate({ id: i.id })}
                        >
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
