import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard } from "~/components/auth-card";
import { currentSession } from "~/server/current-session";
import { SignInForm } from "./sign-in-form";

export const dynamic = "force-dynamic";

export default async function SignInPage() {
  if (await currentSession()) redirect("/");
  return (
    <AuthCard>
      <p className="muted">Hour-by-hour thresholds, tuned against real history.</p>
      <SignInForm />
      <p className="muted auth-switch">
        New to Tidemark? <Link href="/sign-up">Create an account</Link>
      </p>
    </AuthCard>
  );
}
