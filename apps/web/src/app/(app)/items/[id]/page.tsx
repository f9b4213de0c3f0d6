import { notFound } from "next/navigation";
import { Suspense } from "react";
import { z } from "zod";
import { ItemEditor } from "~/components/thresholds/item-editor";
import { currentSession } from "~/server/current-session";

export default async function ItemPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // A malformed id is a page that does not exist, not a validation error to show.
  if (!z.uuid().safeParse(id).success) notFound();
  const session = await currentSession();
  const canEdit = session?.role === "editor" || session?.role === "admin";
  return (
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <ItemEditor
        itemId={id}
        readOnlyReason={
          canEdit
            ? null
            : `You are a ${session?.role ?? "viewer"} in ${session?.organizationName ?? "this organisation"}: only editors and admins change thresholds. Ask one of them, or an admin for the editor role.`
        }
      />
    </Suspense>
  );
}
