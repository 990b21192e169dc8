import { Readable } from 'node:stream';
import Cursor from 'pg-cursor';
import type { Db } from './knex';

/**
 * A query read through a server-side cursor (pg-cursor) on a connection of the knex pool, `batch`
 * rows per round trip, each batch turned into one output chunk by `format`. The stream reads the
 * next batch only when its consumer wants more (backpressure), so memory holds about one batch.
 * The connection goes back to the pool at the end, on error and when the consumer goes away.
 */
/** The part of pg's Client this file uses. */
interface PooledClient<Row> {
  connectionParameters: { query_timeout: number | false };
  query(c: Cursor<Row>): Cursor<Row>;
}

export async function cursorStream<Row>(
  db: Db,
  sql: string,
  bindings: readonly unknown[],
  opts: { batch: number; rowMode?: 'array'; head?: string; format: (rows: Row[]) => string },
): Promise<Readable> {
  const native = db
    .raw(sql, bindings as never)
    .toSQL()
    .toNative();
  const conn = (await db.client.acquireConnection()) as PooledClient<Row>;
  // An export streams for as long as its consumer reads: the pool's per-statement read timeout
  // (createDb's budgetMs) would cut it, so this one query is submitted without it (pg reads the
  // setting when the query is submitted).
  const params = conn.connectionParameters;
  const readTimeout = params.query_timeout;
  params.query_timeout = false;
  let cursor: Cursor<Row>;
  try {
    cursor = conn.query(new Cursor<Row>(native.sql, native.bindings as unknown[], { rowMode: opts.rowMode }));
  } finally {
    params.query_timeout = readTimeout;
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    cursor.close(() => void db.client.releaseConnection(conn));
  };
  let head = opts.head ?? '';
  return new Readable({
    read() {
      cursor.read(opts.batch, (err, rows) => {
        if (err) {
          release();
          this.destroy(err);
        } else if (rows.length === 0) {
          release();
          if (head) this.push(head);
          this.push(null);
        } else {
          this.push(head + opts.format(rows));
          head = '';
        }
      });
    },
    destroy(err, cb) {
      release();
      cb(err);
    },
  });
}
