import { lazyNamespace, type WebContext } from '../../app/context';
import { crudPage } from '../../kit/crud/loader';
import type { SmsMessages } from './i18n/zh-CN';

/**
 * SMS (issue 17): the configurations screen and its message log on the CRUD kit (`screens/sms.ts`),
 * shown behind the menu code `sms`.
 */
export const smsContext: WebContext<'sms', SmsMessages> = {
  name: 'sms',
  i18n: lazyNamespace('sms', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')])),
  menuPages: {
    sms: crudPage(() => import('./pages/SmsPage'), 'SmsPage'),
  },
};
