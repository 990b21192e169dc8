/** The part of pg-cursor (the cursor behind pg-query-stream; no published types) that db/cursor.ts uses. */
declare module 'pg-cursor' {
  import type { Submittable } from 'pg';
  class Cursor<Row = unknown> implements Submittable {
    constructor(text: string, values?: unknown[], config?: { rowMode?: 'array' });
    submit: Submittable['submit'];
    read(rows: number, cb: (err: Error | undefined, rows: Row[]) => void): void;
    close(cb: (err?: Error) => void): void;
  }
  export = Cursor;
}
