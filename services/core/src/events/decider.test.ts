import { describe, expect, it } from 'vitest';
import { createNote, type NoteEvent, noteDecider } from '../testing/events';
import { diffValues } from './audit';
import { foldEvents, spec } from './decider';
import { DomainError } from './errors';
import { openFields, PII_MARK, sealedSubjects, sealFields, subjectsOf } from './shredding';
import { snapshotDue } from './snapshots';
import type { RecordedEvent } from './types';
import { defineEventType, upcast } from './upcasting';

const created: NoteEvent = {
  type: 'NoteCreated',
  data: {
    noteId: '1',
    authorId: '11',
    title: '观察 1',
    studentId: 's1',
    studentName: '王小明',
    guardianPhone: '13800000000',
    at: '2026-11-21 09:00:00',
  },
};
const submitted: NoteEvent = { type: 'NoteSubmitted', data: { at: '2026-11-21 10:00:00' } };

describe('decider runtime: given / when / then', () => {
  const note = spec(noteDecider);

  it('creates a note from nothing', () => {
    note.given([]).when(createNote('1')).then([created]);
  });

  it('refuses to create a note twice', () => {
    note.given([created]).when(createNote('1')).thenThrows(DomainError, 'note.exists');
  });

  it('edits a draft, refuses to edit a submitted note', () => {
    note
      .given([created])
      .when({ type: 'EditNote', title: '新标题', at: '2026-11-21 09:30:00' })
      .then([{ type: 'NoteEdited', data: { title: '新标题', at: '2026-11-21 09:30:00' } }]);
    note
      .given([created, submitted])
      .when({ type: 'EditNote', title: 'x', at: '2026-11-21 11:00:00' })
      .thenThrows(DomainError, 'note.notEditable');
  });

  it('lets a reviewer approve a note in trial, never its own author', () => {
    note
      .given([created, submitted])
      .when({ type: 'ApproveNote', reviewerId: '22', at: '2026-11-21 12:00:00' })
      .then([{ type: 'NoteApproved', data: { reviewerId: '22', at: '2026-11-21 12:00:00' } }]);
    note
      .given([created, submitted])
      .when({ type: 'ApproveNote', reviewerId: '11', at: '2026-11-21 12:00:00' })
      .thenThrows(DomainError, 'note.ownRecord');
    note
      .given([created, submitted])
      .when({ type: 'ApproveNote', reviewerId: '22', at: '2026-11-21 12:00:00' })
      .thenState({
        status: 'success',
        authorId: '11',
        title: '观察 1',
        student: { id: 's1', name: '王小明', guardianPhone: '13800000000' },
        edits: 0,
        updatedAt: '2026-11-21 12:00:00',
      });
  });

  it('the helper itself fails when the outcome differs', () => {
    expect(() => note.given([]).when(createNote('1')).then([])).toThrow();
    expect(() => note.given([]).when(createNote('1')).thenThrows(DomainError)).toThrow(/expected decide to throw/);
    expect(() => note.given([created]).when(createNote('1')).thenThrows(DomainError, 'other.key')).toThrow();
  });

  it('folds recorded events, tracking version and data subjects', () => {
    const rec = (e: NoteEvent, v: number, subjects: string[] = []) =>
      ({ ...e, streamVersion: v, subjects }) as unknown as RecordedEvent;
    const folded = foldEvents(noteDecider, [rec(created, 1, ['student:s1']), rec(submitted, 2)]);
    expect(folded).toMatchObject({ version: 2, subjects: ['student:s1'], fromSnapshot: false });
    expect((folded.state as { status: string }).status).toBe('trial');
  });
});

describe('upcasting', () => {
  it('applies the chain of upcasters from the stored version to the current one', () => {
    defineEventType({
      type: 'UnitUpcast',
      schemaVersion: 3,
      upcasters: {
        1: (d) => ({ ...(d as object), b: 1 }),
        2: (d) => {
          const { a, ...rest } = d as { a: string };
          return { ...rest, renamed: a };
        },
      },
    });
    expect(upcast('UnitUpcast', 1, { a: 'x' })).toEqual({ data: { b: 1, renamed: 'x' }, schemaVersion: 3 });
    expect(upcast('UnitUpcast', 2, { a: 'y', b: 2 })).toEqual({ data: { b: 2, renamed: 'y' }, schemaVersion: 3 });
    expect(upcast('UnitUpcast', 3, { renamed: 'z' })).toEqual({ data: { renamed: 'z' }, schemaVersion: 3 });
    expect(upcast('NeverDeclared', 1, { a: 1 })).toEqual({ data: { a: 1 }, schemaVersion: 1 });
  });

  it('refuses a definition with a missing step', () => {
    expect(() => defineEventType({ type: 'Broken', schemaVersion: 3, upcasters: { 1: (d) => d } })).toThrow(
      /no upcaster from version 2/,
    );
  });
});

describe('crypto-shredding fields', () => {
  const rules = [{ subject: (d: { sid: string }) => `student:${d.sid}`, fields: ['name', 'guardian.phone'] }];
  const key = Buffer.alloc(32, 7);

  it('seals only the declared fields and opens them with the key', () => {
    const data = { sid: '9', name: '李四', guardian: { phone: '139', relation: '母亲' }, note: 'plain' };
    expect(subjectsOf(data, rules)).toEqual(['student:9']);
    const sealed = sealFields(data, rules, 't1', new Map([['student:9', key]])) as Record<string, unknown>;
    expect(JSON.stringify(sealed)).not.toContain('李四');
    expect(JSON.stringify(sealed)).not.toContain('139');
    expect(sealed.note).toBe('plain');
    expect((sealed.name as Record<string, string>)[PII_MARK]).toBe('student:9');
    expect([...sealedSubjects(sealed)]).toEqual(['student:9']);
    expect(openFields(sealed, 't1', new Map([['t1\u0000student:9', key]]), 'ERASED')).toEqual(data);
    // destroyed key → placeholder, the rest intact
    expect(openFields(sealed, 't1', new Map([['t1\u0000student:9', null]]), 'ERASED')).toEqual({
      sid: '9',
      name: 'ERASED',
      guardian: { phone: 'ERASED', relation: '母亲' },
      note: 'plain',
    });
    // bound to its tenant: another tenant's key context cannot open it
    expect(() => openFields(sealed, 't2', new Map([['t2\u0000student:9', key]]), 'E')).toThrow();
  });

  it('never stores personal data of an already-erased subject', () => {
    const sealed = sealFields({ sid: '9', name: '李四' }, rules, 't1', new Map([['student:9', null]]));
    expect(sealed).toEqual({ sid: '9', name: { [PII_MARK]: 'student:9' } });
  });
});

describe('snapshots and diffs', () => {
  it('is due when the version crosses a multiple of `every`', () => {
    expect(snapshotDue(5, 3, 4)).toBe(false);
    expect(snapshotDue(5, 4, 5)).toBe(true);
    expect(snapshotDue(5, 4, 12)).toBe(true);
    expect(snapshotDue(5, 5, 9)).toBe(false);
    expect(snapshotDue(0, 0, 100)).toBe(false);
  });

  it('lists field-level changes with paths', () => {
    expect(
      diffValues(
        { status: 'draft', title: 'a', tags: ['x'], student: { name: 'n', phone: '1' } },
        { status: 'trial', title: 'a', tags: ['x', 'y'], student: { name: 'n' }, reviewer: '2' },
      ),
    ).toEqual([
      { path: 'reviewer', op: 'added', to: '2' },
      { path: 'status', op: 'changed', from: 'draft', to: 'trial' },
      { path: 'student.phone', op: 'removed', from: '1' },
      { path: 'tags.1', op: 'added', to: 'y' },
    ]);
    expect(diffValues({ a: 1 }, { a: 1 })).toEqual([]);
  });
});
