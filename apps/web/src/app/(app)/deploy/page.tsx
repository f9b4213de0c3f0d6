import { DeployPanel } from "~/components/deploy/deploy-panel";
import { currentSession } from "~/server/current-session";

export const dynamic = "force-dynamic";

export default async function DeployPage() {
  const session = await currentSession();
  return <DeployPanel canDeploy={session?.role === "editor" || session?.role === "admin"} />;
}
