"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import "~/components/settings/settings.css";

interface Problem {
  error?: string;
  issues?: { path: string; message: string }[];
}

/**
 * Sign-up: with an invitation the account joins the inviting organisation (its address is fixed);
 * without one it creates an organisation of its own.
 */
export function SignUpForm({ invitation, email }: { invitation: string | null; email: string | null }) {
  const router = useRouter();
  const [problem, setProblem] = useState<Problem | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setProblem(null);
    const response = await fetch("/api/auth/sign-up", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: form.get("name"),
        email: email ?? form.get("email"),
        password: form.get("password"),
        ...(invitation ? { invitation } : { organizationName: form.get("organizationName") }),
      }),
    });
    setPending(false);
    if (response.ok) {
      router.replace("/");
      router.refresh();
      return;
    }
    setProblem(((await response.json().catch(() => ({}))) as Problem) ?? { error: `sign-up failed (${response.status})` });
  }

  const fieldError = (field: string) => problem?.issues?.find((i) => i.path === field)?.message;
  return (
    <form onSubmit={onSubmit} className="form">
      <label>
        Your name
        <input name="name" autoComplete="name" required maxLength={100} />
        {fieldError("name") && <span className="error">{fieldError("name")}</span>}
      </label>
      <label>
        Email
        <input name="email" type="email" autoComplete="username" required readOnly={email !== null} defaultValue={email ?? undefined} />
        {fieldError("email") && <span className="error">{fieldError("email")}</span>}
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="new-password" required minLength={10} />
        {fieldError("password") && <span className="error">{fieldError("password")}</span>}
      </label>
      {!invitation && (
        <label>
          Organisation
          <input name="organizationName" required minLength={2} maxLength={100} placeholder="e.g. Acme Operations" />
          {fieldError("organizationName") && <span className="error">{fieldError("organizationName")}</span>}
        </label>
      )}
      {problem?.error && (
        <p role="alert" className="error">
          {problem.error}
        </p>
      )}
      <button type="submit" disabled={pending}>
        {pending ? "Creating…" : invitation ? "Create account and join" : "Create account"}
      </button>
    </form>
  );
}
