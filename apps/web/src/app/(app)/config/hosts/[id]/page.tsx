import { HostDetail } from "~/components/config/host-detail";

export default async function HostPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <HostDetail hostId={id} />;
}
