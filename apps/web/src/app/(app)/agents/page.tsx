import { AgentsPanel } from "~/components/deploy/agents-panel";
import { currentSession } from "~/server/current-session";

export const dynamic = "force-dynamic";

export default async function AgentsPage() {
  const session = await currentSession();
  return <AgentsPanel isAdmin={session?.role === "admin"} />;
}
