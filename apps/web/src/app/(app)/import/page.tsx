import { BischeckImport } from "~/components/config/bischeck-import";

export default function ImportPage() {
  return <BischeckImport />;
}
