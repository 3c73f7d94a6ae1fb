import { lazyNamespace, page, type WebContext } from '../../app/context';
import { crudPage } from '../../kit/crud/loader';
import type { AuditMessages } from './i18n/zh-CN';
import { AUDIT_PATHS } from './paths';

/**
 * 审计追溯 (issue 24): auditors (and administrators) find any stream — teaching records of every
 * family, workflow instances — and replay its story, read only: the search on the console kit
 * behind the menu `audit`, and one stream's page (timeline, state as of any version or moment,
 * replay, two versions side by side, evidence).
 */
export const auditContext: WebContext<'audit', AuditMessages> = {
  name: 'audit',
  i18n: lazyNamespace('audit', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')])),
  pages: [
    {
      path: AUDIT_PATHS.stream,
      load: page(() => import('./pages/AuditStreamPage'), 'AuditStreamPage'),
      titleKey: 'route.auditStream',
      icon: 'History',
    },
  ],
  menuPages: {
    audit: crudPage(() => import('./pages/AuditSearchPage'), 'AuditSearchPage'),
  },
};
