import { sql } from 'kysely';
import { registerMessages } from '@sprout/core/i18n';
import { crud } from '@sprout/core/permissions/catalog';
import type { ServerContext } from '../../context';
import { BASE, noticeRoutes } from './notice-routes';
import { insertNotice, seedNoticeCategories } from './notice-repo';

export { seedNoticeCategories } from './notice-repo';

registerMessages({
  zh: {
    'notice.title': '请输入通知标题',
    'notice.category': '请选择通知类型',
    'notice.releaseTime': '发布时间格式应为 yyyy-MM-dd HH:mm:ss',
    'notice.audience': '请选择通知范围',
    'notice.depts': '请选择接收通知的部门',
    'notice.unknownDepts': '部门不存在：{ids}',
    'notice.contentTooLong': '通知内容过长',
    'notice.unknownCategory': '通知类型不存在：{category}',
    'notice.unknown': '通知不存在或不可阅读：{id}',
  },
  en: {
    'notice.title': 'Please enter the notice title',
    'notice.category': 'Please choose the notice category',
    'notice.releaseTime': 'The release time must read yyyy-MM-dd HH:mm:ss',
    'notice.audience': 'Please choose who receives the notice',
    'notice.depts': 'Please choose the departments that receive the notice',
    'notice.unknownDepts': 'No such department: {ids}',
    'notice.contentTooLong': 'The notice content is too long',
    'notice.unknownCategory': 'No such notice category: {category}',
    'notice.unknown': 'No such notice for you to read: {id}',
  },
});

const post = (call: string) => [`POST ${BASE}/${call}`];

/** Notices (issue 17, spec §7 "/blade-desk/notice/"): the console's family and every reader's calls. */
export const noticeContext: ServerContext = {
  name: 'notice',
  routes: noticeRoutes,
  menus: [
    {
      section: 'desk',
      menus: [
        {
          code: 'desk_notice',
          name: '通知公告',
          nameEn: 'Notices',
          path: '/desk/notice',
          icon: 'iconfont iconicon_sms',
          sort: 2,
          resource: 'notice',
          // listNotice, read and unread-count are every signed-in user's (access: 'authenticated').
          api: [`GET ${BASE}/**`],
          buttons: crud('notice', '公告', 'notice', [], {
            add: post('submit'),
            edit: post('submit'),
            delete: post('remove'),
          }),
        },
      ],
    },
  ],
  tenantSeed: seedNoticeCategories,
  demo: async (trx, world) => {
    const admin = world.actor('admin').id;
    const { rows } = await sql<{ id: string }>`select id::text from dept
      where tenant_id = ${world.tenantId} and dept_name = '小班组' and is_deleted = 0 limit 1`.execute(trx);
    const day = 86_400_000;
    const now = Date.now();
    const doc = (...lines: string[]) =>
      JSON.stringify({
        type: 'doc',
        content: lines.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
      });
    await insertNotice(trx, world.tenantId, {
      title: '元旦放假安排',
      category: '4',
      content: doc('1 月 1 日至 1 月 3 日放假，1 月 4 日正常入园。', '请各班提前通知家长。'),
      releaseTime: new Date(now - 3 * day),
      by: admin,
    });
    await insertNotice(trx, world.tenantId, {
      title: '冬季运动会报名',
      category: '3',
      content: doc('本周五前各班上报参赛幼儿名单。'),
      releaseTime: new Date(now - day),
      by: admin,
    });
    if (rows[0])
      await insertNotice(trx, world.tenantId, {
        title: '小班组教研活动通知',
        category: '1',
        content: doc('周三下午 3 点在多功能厅开展小班组教研，请小班组教师准时参加。'),
        releaseTime: new Date(now - 2 * 3_600_000),
        deptIds: [rows[0].id],
        by: admin,
      });
  },
};
