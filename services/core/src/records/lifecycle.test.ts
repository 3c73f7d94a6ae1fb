import { describe, expect, it } from 'vitest';
import { spec } from '../events/decider';
import { t } from '../i18n';
import {
  type Actor,
  decideRecord,
  initialRecordState,
  type RecordEvent,
  RecordRuleError,
  recordDecider,
  type RecordState,
} from './lifecycle';

type Content = { theme: string };
const decider = recordDecider<Content>('week');
const teacher: Actor = { id: '11', name: '李老师' };
const coTeacher: Actor = { id: '12', name: '王老师' };
const reviewer: Actor = { id: '21', name: '张园长' };
const parent: Actor = { id: '31', name: '访客' };
const at = '2026-11-21 09:00:00';
const header = { kind: 'week', deptId: '5', classId: '7', semester: '2026-2027-1' };

const by = (a: Actor, when = at) => ({ actorId: a.id, actorName: a.name, at: when });
const created: RecordEvent<Content> = {
  type: 'RecordCreated',
  data: { ...by(teacher), ...header, content: { theme: '秋天' }, coAuthorIds: [coTeacher.id] },
};
const submitted: RecordEvent<Content> = { type: 'RecordSubmitted', data: by(teacher) };
const approved: RecordEvent<Content> = { type: 'RecordApproved', data: { ...by(reviewer), comment: null } };
const returned: RecordEvent<Content> = { type: 'RecordReturned', data: { ...by(reviewer), comment: '请补充区域活动' } };
const excellent: RecordEvent<Content> = { type: 'RecordMarkedExcellent', data: by(reviewer) };

/** Asserts the refusal: its class, HTTP status and message key, and that both languages have it. */
function refuses(
  past: RecordEvent<Content>[],
  command: Parameters<typeof decideRecord<Content>>[0],
  key: string,
  status: number,
) {
  spec(decider).given(past).when(command).thenThrows(RecordRuleError, key);
  try {
    decideRecord(command, past.reduce(decider.evolve, initialRecordState<Content>()));
  } catch (err) {
    expect((err as RecordRuleError).status).toBe(status);
  }
  expect(t('zh', key)).not.toBe(key);
  expect(t('en', key)).not.toBe(key);
  expect(t('en', key)).not.toBe(t('zh', key));
}

describe('record lifecycle: transitions', () => {
  it('creates a draft owned by its author, co-authors deduplicated and without the author', () => {
    spec(decider)
      .given([])
      .when({
        type: 'CreateRecord',
        actor: teacher,
        at,
        header,
        content: { theme: '秋天' },
        coAuthorIds: ['12', '12', '11', ''],
      })
      .then([created]);
  });

  it('lets authors and co-authors edit a draft', () => {
    spec(decider)
      .given([created])
      .when({ type: 'UpdateDraft', actor: coTeacher, at, content: { theme: '落叶' } })
      .then([{ type: 'DraftUpdated', data: { ...by(coTeacher), content: { theme: '落叶' }, coAuthorIds: ['12'] } }]);
  });

  it('submits a draft for review and a returned record again', () => {
    spec(decider).given([created]).when({ type: 'SubmitRecord', actor: teacher, at }).then([submitted]);
    spec(decider)
      .given([created, submitted, returned])
      .when({ type: 'SubmitRecord', actor: coTeacher, at })
      .then([{ type: 'RecordSubmitted', data: by(coTeacher) }]);
  });

  it('approves a trial record, recording the reviewer and the time', () => {
    spec(decider)
      .given([created, submitted])
      .when({ type: 'ApproveRecord', actor: reviewer, at, comment: '  ' })
      .then([approved]);
    spec(decider)
      .given([created, submitted])
      .when({ type: 'ApproveRecord', actor: reviewer, at })
      .thenState({
        ...initialRecordState<Content>(),
        exists: true,
        status: 'success',
        kind: 'week',
        authorId: '11',
        authorName: '李老师',
        coAuthorIds: ['12'],
        deptId: '5',
        classId: '7',
        semester: '2026-2027-1',
        content: { theme: '秋天' },
        reviewerId: '21',
        reviewerName: '张园长',
        reviewTime: at,
        submitTime: at,
        createTime: at,
        updateTime: at,
      } satisfies RecordState<Content>);
  });

  it('returns a trial record with the comment, trimmed', () => {
    spec(decider)
      .given([created, submitted])
      .when({ type: 'ReturnRecord', actor: reviewer, at, comment: ' 请补充区域活动 ' })
      .then([returned]);
  });

  it('lets a reviewer edit during review (bossupdateWeek)', () => {
    spec(decider)
      .given([created, submitted])
      .when({ type: 'EditDuringReview', actor: reviewer, at, content: { theme: '秋天的果实' } })
      .then([{ type: 'EditedDuringReview', data: { ...by(reviewer), content: { theme: '秋天的果实' } } }]);
  });

  it('marks and unmarks an approved record excellent', () => {
    spec(decider)
      .given([created, submitted, approved])
      .when({ type: 'MarkExcellent', actor: reviewer, at })
      .then([excellent]);
    spec(decider)
      .given([created, submitted, approved, excellent])
      .when({ type: 'UnmarkExcellent', actor: reviewer, at })
      .then([{ type: 'ExcellentMarkRemoved', data: by(reviewer) }]);
  });

  it('collects an excellent record for any reader and cancels it', () => {
    const collected: RecordEvent<Content> = { type: 'RecordCollected', data: by(parent) };
    spec(decider)
      .given([created, submitted, approved, excellent])
      .when({ type: 'CollectRecord', actor: parent, at })
      .then([collected]);
    spec(decider)
      .given([created, submitted, approved, excellent, collected])
      .when({ type: 'CancelCollection', actor: parent, at })
      .then([{ type: 'CollectionCancelled', data: by(parent) }]);
  });

  it('soft-deletes a draft or a returned record', () => {
    spec(decider)
      .given([created])
      .when({ type: 'DeleteRecord', actor: teacher, at })
      .then([{ type: 'RecordDeleted', data: by(teacher) }]);
    spec(decider)
      .given([created, submitted, returned])
      .when({ type: 'DeleteRecord', actor: coTeacher, at })
      .then([{ type: 'RecordDeleted', data: by(coTeacher) }]);
  });
});

describe('record lifecycle: refusals, with clear messages in both languages', () => {
  it('refuses submitting twice', () =>
    refuses([created, submitted], { type: 'SubmitRecord', actor: teacher, at }, 'record.alreadySubmitted', 409));
  it('refuses editing while in trial', () =>
    refuses(
      [created, submitted],
      { type: 'UpdateDraft', actor: teacher, at, content: { theme: 'x' } },
      'record.editInTrial',
      409,
    ));
  it('refuses editing an approved record', () =>
    refuses(
      [created, submitted, approved],
      { type: 'UpdateDraft', actor: teacher, at, content: { theme: 'x' } },
      'record.editApproved',
      409,
    ));
  it('refuses approving twice', () =>
    refuses(
      [created, submitted, approved],
      { type: 'ApproveRecord', actor: reviewer, at },
      'record.alreadyApproved',
      409,
    ));
  it('refuses approving a draft', () =>
    refuses([created], { type: 'ApproveRecord', actor: reviewer, at }, 'record.notInTrial', 409));
  it('refuses approving one’s own record, as author or co-author', () => {
    refuses([created, submitted], { type: 'ApproveRecord', actor: teacher, at }, 'record.ownReview', 403);
    refuses(
      [created, submitted],
      { type: 'ReturnRecord', actor: coTeacher, at, comment: 'x' },
      'record.ownReview',
      403,
    );
  });
  it('refuses returning without a comment', () =>
    refuses(
      [created, submitted],
      { type: 'ReturnRecord', actor: reviewer, at, comment: '   ' },
      'record.commentRequired',
      400,
    ));
  it('refuses edits and submission by someone who is not an author', () => {
    refuses([created], { type: 'UpdateDraft', actor: parent, at, content: { theme: 'x' } }, 'record.notAuthor', 403);
    refuses([created], { type: 'SubmitRecord', actor: parent, at }, 'record.notAuthor', 403);
    refuses([created], { type: 'DeleteRecord', actor: parent, at }, 'record.notAuthor', 403);
  });
  it('lets a member of the teaching team edit and submit, and makes her a co-author who cannot review it', () => {
    const colleague: Actor = { id: '13', name: '赵老师' };
    spec(decider)
      .given([created])
      .when({ type: 'UpdateDraft', actor: colleague, at, content: { theme: '秋天的树' }, team: true })
      .then([
        {
          type: 'DraftUpdated',
          data: { ...by(colleague), content: { theme: '秋天的树' }, coAuthorIds: [coTeacher.id, colleague.id] },
        },
      ]);
    const edited: RecordEvent<Content> = {
      type: 'DraftUpdated',
      data: { ...by(colleague), content: { theme: '秋天的树' }, coAuthorIds: [coTeacher.id, colleague.id] },
    };
    spec(decider)
      .given([created, edited])
      .when({ type: 'SubmitRecord', actor: colleague, at })
      .then([{ type: 'RecordSubmitted', data: by(colleague) }]);
    refuses([created, edited, submitted], { type: 'ApproveRecord', actor: colleague, at }, 'record.ownReview', 403);
  });
  it('a co-edited revision and a co-edited submission name everyone whose edits they hold', () => {
    const colleague: Actor = { id: '13', name: '赵老师' };
    spec(decider)
      .given([created])
      .when({
        type: 'UpdateDraft',
        actor: teacher,
        at,
        content: { theme: '一起写' },
        authors: [colleague.id, teacher.id],
      })
      .then([
        {
          type: 'DraftUpdated',
          data: {
            ...by(teacher),
            content: { theme: '一起写' },
            coAuthorIds: [coTeacher.id, colleague.id],
            authors: [colleague.id, teacher.id],
          },
        },
      ]);
    spec(decider)
      .given([created])
      .when({ type: 'SubmitRecord', actor: teacher, at, content: { theme: '定稿' }, authors: [colleague.id] })
      .then([
        {
          type: 'RecordSubmitted',
          data: {
            ...by(teacher),
            content: { theme: '定稿' },
            coAuthorIds: [coTeacher.id, colleague.id],
            authors: [teacher.id, colleague.id],
          },
        },
      ]);
    const state = [
      created,
      {
        type: 'RecordSubmitted',
        data: { ...by(teacher), content: { theme: '定稿' }, coAuthorIds: [coTeacher.id, colleague.id], authors: [] },
      } as RecordEvent<Content>,
    ].reduce(decider.evolve, decider.initialState());
    expect(state).toMatchObject({
      status: 'trial',
      content: { theme: '定稿' },
      coAuthorIds: [coTeacher.id, colleague.id],
    });
  });
  it('a co-edited revision and submission keep which user changed which field', () => {
    const colleague: Actor = { id: '13', name: '赵老师' };
    const fieldAuthors = { theme: [colleague.id], 'days.0.morning': [teacher.id] };
    spec(decider)
      .given([created])
      .when({
        type: 'UpdateDraft',
        actor: teacher,
        at,
        content: { theme: '分工' },
        authors: [colleague.id],
        fieldAuthors,
      })
      .then([
        {
          type: 'DraftUpdated',
          data: {
            ...by(teacher),
            content: { theme: '分工' },
            coAuthorIds: [coTeacher.id, colleague.id],
            authors: [colleague.id],
            fieldAuthors,
          },
        },
      ]);
    spec(decider)
      .given([created])
      .when({ type: 'SubmitRecord', actor: teacher, at, content: { theme: '分工' }, authors: [], fieldAuthors: {} })
      .then([
        {
          type: 'RecordSubmitted',
          data: { ...by(teacher), content: { theme: '分工' }, coAuthorIds: [coTeacher.id], authors: [teacher.id] },
        },
      ]);
  });
  it('refuses deleting a record in review or approved', () => {
    refuses([created, submitted], { type: 'DeleteRecord', actor: teacher, at }, 'record.deleteNotAllowed', 409);
    refuses(
      [created, submitted, approved],
      { type: 'DeleteRecord', actor: teacher, at },
      'record.deleteNotAllowed',
      409,
    );
  });
  it('refuses anything on a missing or deleted record', () => {
    refuses([], { type: 'SubmitRecord', actor: teacher, at }, 'record.notFound', 404);
    refuses(
      [created, { type: 'RecordDeleted', data: by(teacher) }],
      { type: 'SubmitRecord', actor: teacher, at },
      'record.deleted',
      404,
    );
  });
  it('refuses creating twice', () =>
    refuses(
      [created],
      { type: 'CreateRecord', actor: teacher, at, header, content: { theme: 'x' } },
      'record.alreadyExists',
      409,
    ));
  it('refuses excellence before approval and twice', () => {
    refuses([created, submitted], { type: 'MarkExcellent', actor: reviewer, at }, 'record.excellentNeedsApproval', 409);
    refuses(
      [created, submitted, approved, excellent],
      { type: 'MarkExcellent', actor: reviewer, at },
      'record.alreadyExcellent',
      409,
    );
    refuses(
      [created, submitted, approved],
      { type: 'UnmarkExcellent', actor: reviewer, at },
      'record.notExcellent',
      409,
    );
  });
  it('refuses collecting a record that is not excellent, twice, or cancelling what was never collected', () => {
    refuses(
      [created, submitted, approved],
      { type: 'CollectRecord', actor: parent, at },
      'record.collectNeedsExcellent',
      409,
    );
    refuses(
      [created, submitted, approved, excellent, { type: 'RecordCollected', data: by(parent) }],
      { type: 'CollectRecord', actor: parent, at },
      'record.alreadyCollected',
      409,
    );
    refuses(
      [created, submitted, approved, excellent],
      { type: 'CancelCollection', actor: parent, at },
      'record.notCollected',
      409,
    );
  });
});
