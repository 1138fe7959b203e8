import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Where `agora listen` got to, per API and agent, in listen-cursors.json beside the keystore: a
 * listener stopped resumes after the last event it forwarded. The cursor is saved after the server
 * took the event: one that crashes between the two sends that event again (at least once; a receiver
 * tells a repeat by its webhook-id, the event id).
 */
export class ListenCursors {
  readonly path: string;

  constructor(
    keystorePath: string,
    private readonly key: string,
  ) {
    this.path = join(dirname(keystorePath), 'listen-cursors.json');
  }

  get(): string | null {
    return this.all()[this.key] ?? null;
  }

  set(cursor: string): void {
    const all = { ...this.all(), [this.key]: cursor };
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    // Written whole then renamed: a listener killed mid-write keeps the previous cursor, not a torn file.
    writeFileSync(`${this.path}.tmp`, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
    renameSync(`${this.path}.tmp`, this.path);
  }

  private all(): Record<string, string> {
    try {
      return JSON.parse(readFileSync(this.path, 'utf8')) as Record<string, string>;
    } catch {
      return {};
    }
  }
}
