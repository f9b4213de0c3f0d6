import { notFound } from "next/navigation";
import { z } from "zod";
import { ServiceDetail } from "~/components/config/service-detail";

export default async function ServicePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!z.uuid().safeParse(id).success) notFound();
  return <ServiceDetail serviceId={id} />;
}
