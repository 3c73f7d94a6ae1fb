import type { CrudMessages } from '../kit/crud/i18n/zh-CN';
import { crudNamespace } from '../kit/crud/namespace';
import type { RecordsMessages } from '../kit/records/i18n/zh-CN';
import { recordsNamespace } from '../kit/records/namespace';
import { auditContext } from '../modules/audit';
import { authContext } from '../modules/auth';
import { codegenContext } from '../modules/codegen';
import { errorsContext } from '../modules/errors';
import { flowContext } from '../modules/flow';
import { growthContext } from '../modules/growth';
import { guideContext } from '../modules/guide';
import { homeContext } from '../modules/home';
import { infoContext } from '../modules/info';
import { layoutContext } from '../modules/layout';
import { smsContext } from '../modules/sms';
import { dataSourceContext } from '../modules/datasource';
import { libraryContext } from '../modules/library';
import { resourceContext } from '../modules/resource';
import { noticeContext } from '../modules/notice';
import { inboxContext } from '../modules/inbox';
import { logContext } from '../modules/log';
import { observationContext } from '../modules/observation';
import { reportContext } from '../modules/report';
import { systemContext } from '../modules/system';
import { teacherContext } from '../modules/teacher';
import { teachingContext } from '../modules/teaching';
import { tutorialContext } from '../modules/tutorial';
import { weekContext } from '../modules/week';
import type { NamespacesOf } from './context';

/**
 * Every web context (`web/src/modules/<ctx>/index.ts`). The router, the menu's pages and i18n
 * are assembled from this list: a new context is its folder and one line here.
 */
export const CONTEXTS = [
  authContext,
  layoutContext,
  errorsContext,
  homeContext,
  infoContext,
  tutorialContext,
  weekContext,
  guideContext,
  observationContext,
  teachingContext,
  systemContext,
  smsContext,
  resourceContext,
  noticeContext,
  inboxContext,
  dataSourceContext,
  libraryContext,
  logContext,
  teacherContext,
  growthContext,
  auditContext,
  reportContext,
  codegenContext,
  flowContext,
] as const;

/**
 * The namespaces of the platform's kits (`web/src/kit/`): registered like a context's, loaded
 * with the pages built on them (`crudPage`).
 */
export const KIT_NAMESPACES = [crudNamespace, recordsNamespace] as const;

/** Each context's namespace and the type of its messages (`i18next.d.ts` checks `t` against them). */
export type ContextMessages = NamespacesOf<typeof CONTEXTS> & { crud: CrudMessages; records: RecordsMessages };
