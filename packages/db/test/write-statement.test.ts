import { describe, expect, it } from "vitest";
import { WriteStatement } from "../src/write-statement.ts";

/** The SQL and the parameters a statement would send, caught from a fake client. */
async function sent(statement: WriteStatement): Promise<{ text: string; values: unknown[] } | null> {
  let query: { text: string; values: unknown[] } | null = null;
  const client = {
    query: async (text: string, values: unknown[]) => {
      query = { text, values };
      return { rows: [] };
    },
  };
  await statement.run(client as never);
  return query;
}

describe("WriteStatement.shared", () => {
  it("gives every part asking for the same name one placeholder and one parameter", async () => {
    const statement = new WriteStatement();
    const rows = statement.unnest([[[1, 2], "bigint[]"]]);
    statement.with("a", `INSERT INTO t (o, v) SELECT ${statement.shared("organization", "org-1", "uuid")}, v FROM ${rows} AS r(v)`);
    statement.with("b", `DELETE FROM u WHERE o = ${statement.shared("organization", "org-1", "uuid")}`);
    const query = await sent(statement);
    expect(query?.values).toEqual(["{1,2}", "org-1"]);
    expect(query?.text.match(/\$2::uuid/g)).toHaveLength(2);
  });

  it("refuses a second value under a name already given", () => {
    const statement = new WriteStatement();
    statement.shared("organization", "org-1", "uuid");
    expect(() => statement.shared("organization", "org-2", "uuid")).toThrow(/"organization" is org-1 already, not org-2/);
  });
});
