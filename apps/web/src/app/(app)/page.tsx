import { Overview } from "~/components/overview";

export default function OverviewPage() {
  return <Overview />;
}
