import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';

/**
 * Kysely dialect for PGlite. PGlite is one connection, so a connection is handed to one
 * caller at a time (a FIFO lock): a transaction never interleaves with another request.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pg: PGlite) {}
  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pg);
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  private tail: Promise<void> = Promise.resolve();
  private release: (() => void) | undefined;

  constructor(pg: PGlite) {
    this.connection = new PGliteConnection(pg);
  }
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((r) => {
      release = r;
    });
    await previous;
    this.release = release;
    return this.connection;
  }
  async beginTransaction(conn: DatabaseConnection) {
    await conn.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(conn: DatabaseConnection) {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(conn: DatabaseConnection) {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection() {
    const r = this.release;
    this.release = undefined;
    r?.();
  }
  async destroy() {}
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pg: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (compiled.parameters.length === 0 && compiled.sql.includes(';')) {
      // A parameterless multi-statement script (e.g. the tenant-transaction preamble).
      const results = await this.pg.exec(compiled.sql);
      return { rows: (results.at(-1)?.rows ?? []) as R[] };
    }
    const r = await this.pg.query<R>(compiled.sql, compiled.parameters as unknown[]);
    const mutating = /^\s*(insert|update|delete|merge)\b/i.test(compiled.sql) || /^\s*with\b/i.test(compiled.sql);
    return {
      rows: r.rows,
      numAffectedRows: mutating && r.affectedRows !== undefined ? BigInt(r.affectedRows) : undefined,
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is not supported on PGlite
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on PGlite');
  }
}
