import type { FastifyInstance } from 'fastify';
import '@sprout/core/events/catalog';
import { ensureReadModels } from '@sprout/core/events';
import { registerMessages } from '@sprout/core/i18n';
import { auditRoutes } from './routes';
import type { ServerContext } from '../../context';
import { AUDIT_MENUS } from './menus';

registerMessages({
  zh: {
    'audit.versionOrAt': '只能指定 version 或 at 之一',
    'audit.diffOrder': 'from 不能大于 to',
    'audit.versionBeyond': '版本超出范围，当前版本为 {version}',
    'audit.streamNotFound': '找不到该记录的历史，或您无权查看',
    'audit.beforeStream': '该时刻早于记录的创建（{start}），那时还没有这条记录',
    'audit.diffTwoStreams': '只能比较同一条记录的两个版本，不能比较两条不同的记录',
    'audit.badType': '记录类型只能包含小写字母、数字和下划线',
    'audit.badId': '编号只能包含字母、数字和 : _ . -',
    'audit.type.week': '周计划',
    'audit.type.week_plan': '教案',
    'audit.type.day_plan': '一日计划',
    'audit.type.observation': '观察记录',
    'audit.type.observation_regional': '区域观察',
    'audit.type.creview': '课程审议',
    'audit.type.hearken': '倾听记录',
    'audit.evidence.title': '审计证据：记录历史',
    'audit.evidence.stream': '记录',
    'audit.evidence.version': '版本',
    'audit.evidence.hash': 'JSON 证据文件的哈希值',
    'audit.evidence.hashNote': '同时导出的 JSON 文件的 SHA-256 必须与上面的值一致，否则文件已被改动。',
    'audit.evidence.who': '操作人',
    'audit.evidence.when': '时间',
    'audit.evidence.address': '地址',
    'audit.evidence.client': '客户端',
    'audit.evidence.comment': '意见',
    'audit.evidence.field': '字段',
    'audit.evidence.before': '修改前',
    'audit.evidence.after': '修改后',
  },
  en: {
    'audit.versionOrAt': 'give either version or at, not both',
    'audit.diffOrder': 'from must not be greater than to',
    'audit.versionBeyond': 'version out of range; the current version is {version}',
    'audit.streamNotFound': 'No such record history, or you may not see it',
    'audit.beforeStream': 'That moment is before the record was created ({start}); it did not exist yet',
    'audit.diffTwoStreams': 'Only two versions of the same record can be compared, not two different records',
    'audit.badType': 'A record type holds only lowercase letters, digits and underscores',
    'audit.badId': 'An id holds only letters, digits and : _ . -',
    'audit.type.week': 'Weekly plan',
    'audit.type.week_plan': 'Lesson plan',
    'audit.type.day_plan': 'Day plan',
    'audit.type.observation': 'Observation',
    'audit.type.observation_regional': 'Area observation',
    'audit.type.creview': 'Curriculum review',
    'audit.type.hearken': 'Listening record',
    'audit.evidence.title': 'Audit evidence: record history',
    'audit.evidence.stream': 'Record',
    'audit.evidence.version': 'Version',
    'audit.evidence.hash': 'Hash of the JSON evidence file',
    'audit.evidence.hashNote':
      'The SHA-256 of the JSON file exported with this document must equal the value above; otherwise the file was altered.',
    'audit.evidence.who': 'By',
    'audit.evidence.when': 'When',
    'audit.evidence.address': 'Address',
    'audit.evidence.client': 'Client',
    'audit.evidence.comment': 'Comment',
    'audit.evidence.field': 'Field',
    'audit.evidence.before': 'Before',
    'audit.evidence.after': 'After',
  },
});

/**
 * Audit and replay of event-sourced records (docs/EVENTS.md): streams touched, a stream's
 * history, its state as of a version or instant, and field-level diffs.
 */
export async function auditModule(app: FastifyInstance) {
  // Inline read models must exist before the first command writes through them.
  app.addHook('onReady', async () => {
    await ensureReadModels(app.database);
  });
  await app.register(auditRoutes);
}

/** The audit context's manifest (services/api/src/context.ts). */
export const auditContext: ServerContext = { name: 'audit', routes: auditModule, menus: AUDIT_MENUS };
