"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { SignUpForm } from "~/app/sign-up/sign-up-form";
import { useTRPC } from "~/trpc/react";

/** Join as the signed-in user, or sign in / create the invited account first. */
export function InviteActions({ token, email, signedIn }: { token: string; email: string; signedIn: boolean }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [mode, setMode] = useState<"sign-in" | "sign-up">("sign-up");
  const [signInError, setSignInError] = useState<string | null>(null);
  const accept = useMutation(
    trpc.invitations.accept.mutationOptions({
      onSuccess: () => {
        router.replace("/");
        router.refresh();
      },
    }),
  );

  async function signInThenJoin(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = new FormData(event.currentTarget).get("password");
    setSignInError(null);
    const response = await fetch("/api/auth/sign-in", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { error?: string };
      setSignInError(body.error ?? `sign-in failed (${response.status})`);
      return;
    }
    accept.mutate({ token });
  }

  if (signedIn) {
    return (
      <div className="form">
        {accept.error && (
          <p role="alert" className="error">
            {accept.error.message}
          </p>
        )}
        <button type="button" disabled={accept.isPending} onClick={() => accept.mutate({ token })}>
          Join the organisation
        </button>
      </div>
    );
  }
  return (
    <>
      {mode === "sign-up" ? (
        <SignUpForm invitation={token} email={email} />
      ) : (
        <form className="form" onSubmit={signInThenJoin}>
          <label>
            Email
            <input name="email" type="email" value={email} readOnly autoComplete="username" />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          {(signInError ?? accept.error?.message) && (
            <p role="alert" className="error">
              {signInError ?? accept.error?.message}
            </p>
          )}
          <button type="submit" disabled={accept.isPending}>
            Sign in and join
          </button>
        </form>
      )}
      <p className="muted auth-switch">
        <button type="button" className="link-button" onClick={() => setMode(mode === "sign-up" ? "sign-in" : "sign-up")}>
          {mode === "sign-up" ? `I already have an account for ${email}` : "Create the account instead"}
        </button>
      </p>
    </>
  );
}
