import { Suspense } from "react";
import { ItemEditor } from "~/components/thresholds/item-editor";

export default async function ItemPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <ItemEditor itemId={id} />
    </Suspense>
  );
}
