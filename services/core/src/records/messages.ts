import { registerMessages } from '../i18n';

/** Every refusal of the record lifecycle, in both languages. */
export const RECORD_MESSAGES = {
  zh: {
    'record.notFound': '记录不存在或已删除',
    'record.alreadyExists': '记录已存在',
    'record.deleted': '记录已删除',
    'record.notAuthor': '只有作者可以修改、提交或删除该记录',
    'record.editInTrial': '记录正在审核中，不能修改',
    'record.editApproved': '记录已审核通过，不能修改',
    'record.alreadySubmitted': '该记录已提交审核，请勿重复提交',
    'record.alreadyApproved': '该记录已审核通过',
    'record.notInTrial': '只能审核待审核的记录',
    'record.ownReview': '不能审核自己的记录',
    'record.commentRequired': '退回时请填写审核意见',
    'record.deleteNotAllowed': '只能删除草稿或已退回的记录',
    'record.excellentNeedsApproval': '只有审核通过的记录可以评为优秀',
    'record.alreadyExcellent': '该记录已是优秀记录',
    'record.notExcellent': '该记录不是优秀记录',
    'record.collectNeedsExcellent': '只能收藏优秀记录',
    'record.alreadyCollected': '已收藏该记录',
    'record.notCollected': '尚未收藏该记录',
  },
  en: {
    'record.notFound': 'The record does not exist or was deleted',
    'record.alreadyExists': 'The record already exists',
    'record.deleted': 'The record was deleted',
    'record.notAuthor': 'Only the authors can edit, submit or delete this record',
    'record.editInTrial': 'The record is under review and cannot be edited',
    'record.editApproved': 'The record has been approved and cannot be edited',
    'record.alreadySubmitted': 'This record has already been submitted for review',
    'record.alreadyApproved': 'This record has already been approved',
    'record.notInTrial': 'Only records awaiting review can be reviewed',
    'record.ownReview': 'You cannot review your own record',
    'record.commentRequired': 'Please give a comment when returning a record',
    'record.deleteNotAllowed': 'Only drafts and returned records can be deleted',
    'record.excellentNeedsApproval': 'Only approved records can be marked excellent',
    'record.alreadyExcellent': 'This record is already marked excellent',
    'record.notExcellent': 'This record is not marked excellent',
    'record.collectNeedsExcellent': 'Only excellent records can be added to favourites',
    'record.alreadyCollected': 'This record is already in your favourites',
    'record.notCollected': 'This record is not in your favourites',
  },
} as const;

registerMessages(RECORD_MESSAGES);

export type RecordMessageKey = keyof (typeof RECORD_MESSAGES)['zh'];
