import type pg from "pg";
import { arrayLiteral } from "./array-literal.ts";

/**
 * One statement made of data-modifying CTEs, so that a batch writes every table it touches in
 * a single round trip: each writer adds its parts, the evaluator sends them once. PostgreSQL
 * runs every data-modifying CTE to completion whether or not the main query reads it, all
 * against the same snapshot, and fires foreign-key checks at the end of the whole statement.
 */
export class WriteStatement {
  private readonly parts: string[] = [];
  private readonly values: unknown[] = [];
  private readonly sharedParams = new Map<string, { value: string | number; placeholder: string }>();

  /** A placeholder for `value`, cast to `type` (arrays travel as one parameter each, as literals). */
  param(value: unknown, type: string): string {
    this.values.push(Array.isArray(value) ? arrayLiteral(value) : value);
    return `$${this.values.length}::${type}`;
  }

  /**
   * One placeholder for `value` however many parts use it (the organisation every row is written
   * for), made when a part first asks: one nothing reads would leave the server no type for it.
   */
  shared(name: string, value: string | number, type: string): string {
    const known = this.sharedParams.get(name);
    if (known) {
      if (known.value !== value) throw new Error(`WriteStatement: "${name}" is ${known.value} already, not ${value}`);
      return known.placeholder;
    }
    const placeholder = this.param(value, type);
    this.sharedParams.set(name, { value, placeholder });
    return placeholder;
  }

  /** `unnest(...)` of parallel arrays, one parameter per column: the rows of a bulk write. */
  unnest(columns: [values: unknown[], type: string][]): string {
    return `unnest(${columns.map(([values, type]) => this.param(values, type)).join(", ")})`;
  }

  /** Adds a named part; later parts may read its RETURNING rows by name. */
  with(name: string, sql: string): void {
    this.parts.push(`${name} AS (${sql})`);
  }

  async run(client: pg.ClientBase | pg.Pool): Promise<void> {
    if (this.parts.length === 0) return;
    await client.query(`WITH ${this.parts.join(",\n")}\nSELECT 1`, this.values);
  }
}

/** The organisation every row of `statement` is written for, as its one shared placeholder. */
export function organizationParam(statement: WriteStatement, organizationId: string): string {
  return statement.shared("organization", organizationId, "uuid");
}

/**
 * A transaction's statements sent one after another without the caller waiting for each: the
 * server works through one while the caller prepares the next, so database and caller overlap
 * instead of taking turns. Each statement goes out when the one before it is done (a connection
 * runs one query at a time), which the pipeline learns only when the caller lets I/O run:
 * `yieldToConnection` between statements. Nothing is sent after a failure.
 */
export class WritePipeline {
  private tail: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | undefined;

  constructor(private readonly client: pg.ClientBase) {}

  send(statement: WriteStatement): void {
    this.tail = this.tail.then(() => statement.run(this.client));
    // Handled at once, so that a failure waiting for `finish` is not an unhandled rejection.
    this.tail.catch((error: unknown) => {
      this.failure ??= { error };
    });
  }

  /** Lets the connection take its replies and send the next statement; throws a statement's failure as soon as it is known. */
  async yieldToConnection(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.failure) throw this.failure.error;
  }

  /** Waits until every statement sent is done (or one failed); throws the first failure. */
  async finish(): Promise<void> {
    await this.tail;
  }
}
