import { AgentDetail } from "~/components/deploy/agent-detail";

export const dynamic = "force-dynamic";

export default async function AgentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <AgentDetail agentId={id} />;
}
