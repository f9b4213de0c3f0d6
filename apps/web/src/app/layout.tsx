import type { Metadata } from "next";
import type { ReactNode } from "react";
import { themeChoice } from "~/server/theme";
import { TRPCReactProvider } from "~/trpc/react";
import "./globals.css";

// Every page is rendered per request, so that Next.js can stamp its scripts with the request's CSP nonce (src/proxy.ts).
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Tidemark",
  description: "Tune hour-by-hour monitoring thresholds against real history.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const theme = await themeChoice();
  return (
    <html lang="en" data-theme={theme === "system" ? undefined : theme}>
      <body>
        <TRPCReactProvider>{children}</TRPCReactProvider>
      </body>
    </html>
  );
}
