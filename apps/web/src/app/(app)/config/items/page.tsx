import { ItemsList } from "~/components/config/items-list";

export default function ItemsPage() {
  return <ItemsList />;
}
