import { initialRecordState, type RecordEvent, type RecordState } from '@sprout/core/records';
import { describe, expect, it } from 'vitest';
import { recipientsOf } from './inbox-repo';

const state = (over: Partial<RecordState<unknown>> = {}): RecordState<unknown> => ({
  ...initialRecordState<unknown>(),
  exists: true,
  authorId: '1',
  coAuthorIds: ['2'],
  ...over,
});
const by = (actorId: string) => ({ actorId, actorName: `u${actorId}`, at: '2026-11-26T10:00:00+08:00' });

describe('who hears of a lifecycle step', () => {
  it('the authors hear of returns (with the comment), approvals, excellence and collections; never the actor', () => {
    const returned: RecordEvent<unknown> = { type: 'RecordReturned', data: { ...by('9'), comment: '请补充' } };
    expect(recipientsOf(returned, state())).toEqual({ event: 'returned', users: ['1', '2'], comment: '请补充' });
    const approved: RecordEvent<unknown> = { type: 'RecordApproved', data: { ...by('9'), comment: null } };
    expect(recipientsOf(approved, state())).toEqual({ event: 'approved', users: ['1', '2'], comment: null });
    expect(recipientsOf({ type: 'RecordMarkedExcellent', data: by('9') }, state())?.users).toEqual(['1', '2']);
    // A co-author collecting her own team's record tells only the others.
    expect(recipientsOf({ type: 'RecordCollected', data: by('2') }, state())).toEqual({
      event: 'collected',
      users: ['1'],
      comment: null,
    });
    // The only author collecting: nobody to tell.
    expect(recipientsOf({ type: 'RecordCollected', data: by('1') }, state({ coAuthorIds: [] }))).toBeNull();
  });

  it('the reviewer who returned it hears of a resubmission; a first submission tells nobody', () => {
    const submitted: RecordEvent<unknown> = { type: 'RecordSubmitted', data: by('2') };
    expect(recipientsOf(submitted, state({ reviewerId: '9', status: 'trial' }))).toEqual({
      event: 'resubmitted',
      users: ['9'],
      comment: null,
    });
    expect(recipientsOf(submitted, state({ status: 'trial' }))).toBeNull();
  });

  it('edits, uncollecting, unmarking and deletes tell nobody', () => {
    for (const type of ['CollectionCancelled', 'ExcellentMarkRemoved', 'RecordDeleted'] as const)
      expect(recipientsOf({ type, data: by('9') }, state())).toBeNull();
  });
});
