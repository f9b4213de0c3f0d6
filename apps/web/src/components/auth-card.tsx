import type { ReactNode } from "react";

/** The signed-out pages' frame: Tidemark's name over one card (sign-in, sign-up, invitations). */
export function AuthCard({ children }: { children: ReactNode }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <h1 className="brand">
          <span className="brand-mark">≋</span> Tidemark
        </h1>
        {children}
      </div>
    </main>
  );
}
