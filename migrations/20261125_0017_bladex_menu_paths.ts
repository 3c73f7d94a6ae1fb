// A school moving from BladeX keeps its front end (issue 16): the standard console's menus
// take BladeX's standard paths (roles under /authority, regions under /base, logs under
// /monitor/log) and BladeX's icon classes as their `source`. The seed writes the catalogue
// only where a code is missing, so the platform's existing rows are updated here — each
// only while it still holds the value Sprout seeded, so a platform administrator's own
// edit of a path or icon is kept.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

/** Menu code → [path seeded before, BladeX's path]. */
const PATHS: Array<[string, string, string]> = [
  ['role', '/system/role', '/authority/role'],
  ['region', '/system/region', '/base/region'],
  ['log', '/log', '/monitor/log'],
  ['log_usual', '/log/usual', '/monitor/log/usual'],
  ['log_api', '/log/api', '/monitor/log/api'],
  ['log_error', '/log/error', '/monitor/log/error'],
];

/** Menu code → [icon seeded before, BladeX's icon class]. */
const SOURCES: Array<[string, string, string]> = [
  ['system', 'Settings', 'iconfont iconicon_setting'],
  ['user', 'User', 'iconfont iconicon_principal'],
  ['dept', 'Sitemap', 'iconfont iconicon_group'],
  ['post', 'Briefcase', 'iconfont iconicon_message'],
  ['role', 'UserShield', 'iconfont iconicon_boss'],
  ['menu', 'Menu2', 'iconfont iconicon_subordinate'],
  ['topmenu', 'LayoutNavbar', 'iconfont icon-canshu'],
  ['tenant', 'BuildingCommunity', 'iconfont icon-quanxian'],
  ['data_scope', 'Database', 'iconfont icon-shujuzhanshi2'],
  ['api_scope', 'Api', 'iconfont icon-iconset0216'],
  ['dict', 'Book', 'iconfont iconicon_addresslist'],
  ['dict_biz', 'Book2', 'iconfont iconicon_study'],
  ['param', 'Adjustments', 'iconfont iconicon_community_line'],
  ['client', 'Apps', 'iconfont iconicon_mobilephone'],
  ['log', 'FileAnalytics', 'iconfont iconicon_doc'],
  ['desk_notice', 'Speakerphone', 'iconfont iconicon_sms'],
  ['resource', 'CloudUpload', 'iconfont iconicon_coinpurse_line'],
  ['oss', 'Cloud', 'iconfont iconicon_subordinate'],
  ['sms', 'Message', 'iconfont iconicon_message'],
  ['flow', 'GitBranch', 'iconfont iconicon_send'],
  ['flow_model', 'Schema', 'iconfont iconicon_discovery'],
  ['flow_manager', 'Rocket', 'iconfont iconicon_cloud_history'],
  ['flow_follow', 'Route', 'iconfont iconicon_GPS'],
  ['work', 'Checklist', 'iconfont iconicon_notice'],
  ['work_start', 'PlayerPlay', 'iconfont iconicon_compile'],
  ['work_claim', 'HandGrab', 'iconfont iconicon_ding'],
  ['work_todo', 'ListDetails', 'iconfont iconicon_savememo'],
  ['work_send', 'Send', 'iconfont iconicon_doc'],
  ['work_done', 'Archive', 'iconfont iconicon_dispose'],
  ['datasource', 'DatabaseCog', 'iconfont icon-caidanguanli'],
  ['code', 'Code', 'iconfont iconicon_savememo'],
];

const PLATFORM = '000000';

async function set(
  db: Kysely<unknown>,
  column: 'path' | 'source',
  rows: Array<[string, string, string]>,
  back = false,
) {
  for (const [code, before, after] of rows) {
    const [from, to] = back ? [after, before] : [before, after];
    await sql`update menu set ${sql.ref(column)} = ${to}
      where tenant_id = ${PLATFORM} and code = ${code} and category = 1 and ${sql.ref(column)} = ${from}`.execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await set(db, 'path', PATHS);
  await set(db, 'source', SOURCES);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await set(db, 'path', PATHS, true);
  await set(db, 'source', SOURCES, true);
}
