import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type IngestBatch, ingestBatchSchema } from "@tidemark/protocol";

interface SpoolEntry {
  seq: number;
  file: string;
  bytes: number;
  results: number;
}

/**
 * Batches the server could not take yet, one file each, oldest first, bounded in bytes: when the
 * bound is hit the oldest batches are dropped (and counted), so that a long outage keeps the most
 * recent data. Files are written under a temporary name and renamed, so a crash leaves no torn batch.
 * The name carries the sequence and the result count, so the index is rebuilt without reading them.
 */
export class Spool {
  private readonly entries: SpoolEntry[] = [];
  private bytes = 0;
  private nextSeq = 1;
  /** Results dropped because the bound was hit (since this process started). */
  dropped = 0;

  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
  ) {
    mkdirSync(dir, { recursive: true });
    for (const file of readdirSync(dir).sort()) {
      const match = /^(\d{12})-(\d+)\.json$/.exec(file);
      if (!match) {
        if (file.endsWith(".tmp")) rmSync(path.join(dir, file), { force: true });
        continue;
      }
      const bytes = statSync(path.join(dir, file)).size;
      this.entries.push({ seq: Number(match[1]), file, bytes, results: Number(match[2]) });
      this.bytes += bytes;
    }
    this.nextSeq = (this.entries.at(-1)?.seq ?? 0) + 1;
  }

  get batches(): number {
    return this.entries.length;
  }

  get size(): number {
    return this.bytes;
  }

  get results(): number {
    return this.entries.reduce((n, e) => n + e.results, 0);
  }

  append(batch: IngestBatch): void {
    const text = JSON.stringify(batch);
    const bytes = Buffer.byteLength(text);
    while (this.entries.length > 0 && this.bytes + bytes > this.maxBytes) {
      const oldest = this.entries.shift() as SpoolEntry;
      rmSync(path.join(this.dir, oldest.file), { force: true });
      this.bytes -= oldest.bytes;
      this.dropped += oldest.results;
    }
    if (bytes > this.maxBytes) {
      this.dropped += batch.results.length;
      return;
    }
    const seq = this.nextSeq++;
    const file = `${String(seq).padStart(12, "0")}-${batch.results.length}.json`;
    const tmp = path.join(this.dir, `${file}.tmp`);
    writeFileSync(tmp, text);
    renameSync(tmp, path.join(this.dir, file));
    this.entries.push({ seq, file, bytes, results: batch.results.length });
    this.bytes += bytes;
  }

  /** The oldest batch, or null. A file that no longer parses is removed and counted as dropped. */
  peek(): IngestBatch | null {
    for (;;) {
      const oldest = this.entries[0];
      if (!oldest) return null;
      try {
        return ingestBatchSchema.parse(JSON.parse(readFileSync(path.join(this.dir, oldest.file), "utf8")));
      } catch {
        this.removeOldest();
        this.dropped += oldest.results;
      }
    }
  }

  removeOldest(): void {
    const oldest = this.entries.shift();
    if (!oldest) return;
    rmSync(path.join(this.dir, oldest.file), { force: true });
    this.bytes -= oldest.bytes;
  }
}
