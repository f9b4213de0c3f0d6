import Link from "next/link";
import { redirect } from "next/navigation";
import { currentSession } from "~/server/current-session";
import { SignUpForm } from "./sign-up-form";

export const dynamic = "force-dynamic";

export default async function SignUpPage() {
  if (await currentSession()) redirect("/");
  return (
    <main className="auth-page">
      <div className="auth-card">
        <h1 className="brand">
          <span className="brand-mark">≋</span> Tidemark
        </h1>
        <p className="muted">Create an account and your organisation. Invited by a colleague? Open their invitation link instead.</p>
        <SignUpForm invitation={null} email={null} />
        <p className="muted auth-switch">
          Have an account? <Link href="/sign-in">Sign in</Link>
        </p>
      </div>
    </main>
  );
}
