import { MembersPanel } from "~/components/settings/members-panel";
import { currentSession } from "~/server/current-session";

export const dynamic = "force-dynamic";

export default async function MembersPage() {
  const session = await currentSession();
  return <MembersPanel currentUserId={session?.userId ?? ""} />;
}
