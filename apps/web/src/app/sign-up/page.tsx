import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard } from "~/components/auth-card";
import { currentSession } from "~/server/current-session";
import { SignUpForm } from "./sign-up-form";

export const dynamic = "force-dynamic";

export default async function SignUpPage() {
  if (await currentSession()) redirect("/");
  return (
    <AuthCard>
      <p className="muted">Create an account and your organisation. Invited by a colleague? Open their invitation link instead.</p>
      <SignUpForm invitation={null} email={null} />
      <p className="muted auth-switch">
        Have an account? <Link href="/sign-in">Sign in</Link>
      </p>
    </AuthCard>
  );
}
