import { TokensPanel } from "~/components/settings/tokens-panel";

export default function TokensPage() {
  return <TokensPanel />;
}
