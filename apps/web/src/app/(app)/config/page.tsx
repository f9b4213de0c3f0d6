import { redirect } from "next/navigation";

export default function ConfigPage() {
  redirect("/config/items");
}
