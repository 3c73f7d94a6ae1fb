// A small teaching-record-like domain for the event store's tests and benchmark: a note
// about a student, drafted, edited, submitted and approved. Not product code.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Tx } from '../db';
import { hasKeyWrapper, MasterKeyWrapper, setKeyWrapper } from '../keys';
import {
  type AsyncProjector,
  type Decider,
  DomainError,
  defineEventType,
  type NewEvent,
  type ProjectionDefinition,
  type RecordedEvent,
} from '../events';

export type NoteEvent =
  | NewEvent<
      'NoteCreated',
      {
        noteId: string;
        authorId: string;
        title: string;
        studentId: string;
        studentName: string;
        guardianPhone: string;
        at: string;
      }
    >
  | NewEvent<'NoteEdited', { title: string; at: string }>
  | NewEvent<'NoteSubmitted', { at: string }>
  | NewEvent<'NoteApproved', { reviewerId: string; at: string }>;

export type NoteCommand =
  | {
      type: 'CreateNote';
      noteId: string;
      authorId: string;
      title: string;
      studentId: string;
      studentName: string;
      guardianPhone: string;
      at: string;
    }
  | { type: 'EditNote'; title: string; at: string }
  | { type: 'SubmitNote'; at: string }
  | { type: 'ApproveNote'; reviewerId: string; at: string };

export interface NoteState {
  status: 'none' | 'draft' | 'trial' | 'success';
  authorId: string | null;
  title: string | null;
  student: { id: string; name: string; guardianPhone: string } | null;
  edits: number;
  updatedAt: string | null;
}

export const noteDecider: Decider<NoteState, NoteCommand, NoteEvent> = {
  name: 'note',
  streamType: 'note',
  initialState: () => ({ status: 'none', authorId: null, title: null, student: null, edits: 0, updatedAt: null }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateNote': {
        if (state.status !== 'none') throw new DomainError('note.exists');
        const { type: _, ...data } = command;
        return [{ type: 'NoteCreated', data }];
      }
      case 'EditNote':
        if (state.status !== 'draft') throw new DomainError('note.notEditable');
        return [{ type: 'NoteEdited', data: { title: command.title, at: command.at } }];
      case 'SubmitNote':
        if (state.status !== 'draft') throw new DomainError('note.notDraft');
        return [{ type: 'NoteSubmitted', data: { at: command.at } }];
      case 'ApproveNote':
        if (state.status !== 'trial') throw new DomainError('note.notInTrial');
        if (command.reviewerId === state.authorId) throw new DomainError('note.ownRecord');
        return [{ type: 'NoteApproved', data: { reviewerId: command.reviewerId, at: command.at } }];
      default: {
        const never: never = command;
        throw new Error(`unknown command ${JSON.stringify(never)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'NoteCreated':
        return {
          ...state,
          status: 'draft',
          authorId: event.data.authorId,
          title: event.data.title,
          student: { id: event.data.studentId, name: event.data.studentName, guardianPhone: event.data.guardianPhone },
          updatedAt: event.data.at,
        };
      case 'NoteEdited':
        return { ...state, title: event.data.title, edits: state.edits + 1, updatedAt: event.data.at };
      case 'NoteSubmitted':
        return { ...state, status: 'trial', updatedAt: event.data.at };
      case 'NoteApproved':
        return { ...state, status: 'success', updatedAt: event.data.at };
      default: {
        const never: never = event;
        throw new Error(`unknown event ${JSON.stringify(never)}`);
      }
    }
  },
  snapshots: { every: 5, version: 1 },
};

/**
 * Declares the note events: personal fields of NoteCreated; NoteEdited v1 had `text`, v2 `title`.
 * Personal data needs a key wrapper for the erasure keys: a random master key per test process
 * unless the test set one.
 */
export function defineNoteEvents() {
  if (!hasKeyWrapper()) setKeyWrapper(new MasterKeyWrapper(randomBytes(32)));
  defineEventType({
    type: 'NoteCreated',
    personal: [
      {
        subject: (d: { studentId?: string }) => (d.studentId ? `student:${d.studentId}` : null),
        fields: ['studentName', 'guardianPhone'],
      },
    ],
  });
  defineEventType({
    type: 'NoteEdited',
    schemaVersion: 2,
    upcasters: { 1: (d) => ({ title: (d as { text: string }).text, at: (d as { at: string }).at }) },
  });
}

export const createNote = (noteId: string, over: Partial<Extract<NoteCommand, { type: 'CreateNote' }>> = {}) =>
  ({
    type: 'CreateNote',
    noteId,
    authorId: '11',
    title: `观察 ${noteId}`,
    studentId: `s${noteId}`,
    studentName: '王小明',
    guardianPhone: '13800000000',
    at: '2026-11-21 09:00:00',
    ...over,
  }) as const;

/** Inline read model: one row per note (list page). */
export const noteListProjection = (name = 'note_list'): ProjectionDefinition => ({
  name,
  kind: 'inline',
  eventTypes: ['NoteCreated', 'NoteEdited', 'NoteSubmitted', 'NoteApproved'],
  async createTable(trx: Tx, table: string) {
    await sql`
      create table ${sql.table(table)} (
        tenant_id varchar(12) not null,
        note_id varchar(64) not null,
        title text,
        status varchar(16) not null,
        version integer not null,
        primary key (tenant_id, note_id)
      )`.execute(trx);
  },
  async handle(trx, events, ctx) {
    for (const e of events as RecordedEvent<NoteEvent>[]) {
      const t = sql.table(ctx.table);
      if (e.type === 'NoteCreated')
        await sql`insert into ${t} (tenant_id, note_id, title, status, version)
                  values (${e.tenantId}, ${e.streamId}, ${e.data.title}, 'draft', ${e.streamVersion})`.execute(trx);
      else {
        const status = e.type === 'NoteSubmitted' ? 'trial' : e.type === 'NoteApproved' ? 'success' : null;
        const title = e.type === 'NoteEdited' ? e.data.title : null;
        await sql`update ${t} set title = coalesce(${title}, title), status = coalesce(${status}, status), version = ${e.streamVersion}
                  where tenant_id = ${e.tenantId} and note_id = ${e.streamId}`.execute(trx);
      }
    }
  },
});

/**
 * Async read model that records every event it sees once (primary key on the position), so
 * a duplicate fails loudly and a gap shows in the count and checksum; plus per-stream
 * order checks (`max_version` must grow one by one).
 */
export const eventCopyProjection = (
  name = 'event_copy',
  eventTypes: readonly string[] | '*' = '*',
): ProjectionDefinition => ({
  name,
  kind: 'async',
  eventTypes,
  async createTable(trx: Tx, table: string) {
    await sql`
      create table ${sql.table(table)} (
        tenant_id varchar(12) not null,
        global_position bigint not null,
        stream_id varchar(64) not null,
        stream_version integer not null,
        primary key (tenant_id, global_position)
      )`.execute(trx);
  },
  async handle(trx, events, ctx) {
    const rows = JSON.stringify(
      events.map((e) => [e.tenantId, e.globalPosition.toString(), e.streamId, e.streamVersion]),
    );
    // Per-stream order: each event's version is one more than the stream's latest copied one.
    const gaps = await sql<{ n: number }>`
      with x as (
        select r->>0 as tenant_id, (r->>1)::bigint as global_position, r->>2 as stream_id, (r->>3)::int as stream_version,
               row_number() over (partition by r->>0, r->>2 order by ord) as k
        from jsonb_array_elements(${rows}::jsonb) with ordinality as a(r, ord)
      ),
      prev as (
        select c.tenant_id, c.stream_id, max(c.stream_version) as v from ${sql.table(ctx.table)} c
        join (select distinct tenant_id, stream_id from x) s using (tenant_id, stream_id)
        group by c.tenant_id, c.stream_id
      ),
      ins as (
        insert into ${sql.table(ctx.table)} (tenant_id, global_position, stream_id, stream_version)
        select tenant_id, global_position, stream_id, stream_version from x
      )
      select count(*)::int as n from x left join prev using (tenant_id, stream_id)
      where x.stream_version <> coalesce(prev.v, 0) + x.k`.execute(trx);
    if ((gaps.rows[0]?.n ?? 0) > 0) throw new Error(`${ctx.table}: events out of stream order`);
  },
});

/** Count and checksum of a copy table, or of the log itself. */
export async function copyChecksum(trx: Tx, table: string) {
  const r = await sql<{ n: string; sum_pos: string; sum_ver: string }>`
    select count(*)::text as n, coalesce(sum(global_position), 0)::text as sum_pos,
           coalesce(sum(stream_version::bigint * 7919 + length(stream_id)), 0)::text as sum_ver
    from ${sql.table(table)}`.execute(trx);
  return r.rows[0]!;
}

/**
 * Catches a projector up until nothing committed is left behind. An event is applied once
 * it has settled (no older transaction still running anywhere in the cluster), and other
 * test files run in parallel, so one `catchUp` may stop short; this waits (20 s at most).
 */
export async function settle(projector: AsyncProjector, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await projector.catchUp();
    if ((await projector.measureLag()).behind === 0) return;
    if (Date.now() > deadline) throw new Error('projector did not settle in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
