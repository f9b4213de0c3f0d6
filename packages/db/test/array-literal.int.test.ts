import type { Database } from "@tidemark/db/client";
import { queryRows, testDatabase } from "@tidemark/db/testing";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { arrayLiteral } from "../src/array-literal.ts";

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

/** What PostgreSQL reads from the literal is what was given. */
describe("arrayLiteral", () => {
  it("numbers, booleans, strings and nulls come back as they went in", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(fc.double({ noNaN: true }), { nil: null })),
        fc.array(fc.option(fc.integer(), { nil: null })),
        fc.array(
          fc.option(
            fc.string({ unit: "binary" }).map((s) => s.replaceAll("\0", "")),
            { nil: null },
          ),
        ),
        fc.array(fc.option(fc.boolean(), { nil: null })),
        async (floats, ints, texts, bools) => {
          const [row] = await queryRows(db, `SELECT $1::float8[] AS f, $2::bigint[] AS i, $3::text[] AS t, $4::bool[] AS b`, [
            arrayLiteral(floats),
            arrayLiteral(ints),
            arrayLiteral(texts),
            arrayLiteral(bools),
          ]);
          // -0 is stored as 0 by the text form; PostgreSQL's float8 keeps the value otherwise.
          expect(row.f).toEqual(floats.map((v) => (Object.is(v, -0) ? 0 : v)));
          expect(row.i.map((v: string | null) => (v === null ? null : Number(v)))).toEqual(ints);
          expect(row.t).toEqual(texts);
          expect(row.b).toEqual(bools);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("elements repeating the one before them come back as they went in (their text is reused)", async () => {
    const repeating = <T>(pool: T[]) => fc.array(fc.constantFrom(...pool), { maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(
        repeating([1796000000000, 0.5, -0, 0, null]),
        repeating(['a "b"', "\\", "OK", "", "NULL", null]),
        repeating([true, false, null]),
        async (floats, texts, bools) => {
          const [row] = await queryRows(db, `SELECT $1::float8[] AS f, $2::text[] AS t, $3::bool[] AS b`, [
            arrayLiteral(floats),
            arrayLiteral(texts),
            arrayLiteral(bools),
          ]);
          expect(row.f).toEqual(floats.map((v) => (Object.is(v, -0) ? 0 : v)));
          expect(row.t).toEqual(texts);
          expect(row.b).toEqual(bools);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("leaves arrays of anything else to node-postgres", () => {
    const dates = [new Date(0)];
    expect(arrayLiteral(dates)).toBe(dates);
    expect(arrayLiteral([])).toBe("{}");
    expect(arrayLiteral(["NULL", null, 'a "b" \\ c', "x,y{z}"])).toBe('{"NULL",NULL,"a \\"b\\" \\\\ c","x,y{z}"}');
  });
});
