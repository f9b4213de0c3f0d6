import { notFound } from "next/navigation";
import { z } from "zod";
import { HostDetail } from "~/components/config/host-detail";

export default async function HostPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!z.uuid().safeParse(id).success) notFound();
  return <HostDetail hostId={id} />;
}
