import { defineCrud, type FieldOption } from '../../../kit/crud';

const EVENTS = [
  'sign_in',
  'sign_in_failed',
  'captcha_demanded',
  'refresh',
  'refresh_reuse',
  'logout',
  'password_changed',
  'registration_submitted',
  'registration_approved',
  'registration_rejected',
] as const;

const events: FieldOption[] = EVENTS.map((e) => ({ value: e, label: `system.securityLog.events.${e}` }));

/** The security log (`/blade-log/security/list`, the caller's tenant, newest first): read only, no buttons. */
export const securityLog = defineCrud({
  resource: '/blade-log/security',
  name: 'system.securityLog.name',
  testId: 'security-log-page',
  buttons: {},
  columns: [
    { prop: 'createTime', label: 'system.securityLog.createTime', sortable: true, width: 170 },
    { prop: 'event', label: 'system.securityLog.event', type: 'select', search: true, width: 130, options: events },
    {
      prop: 'result',
      label: 'system.securityLog.result',
      type: 'select',
      search: true,
      width: 80,
      options: [
        { value: 'success', label: 'system.securityLog.results.success' },
        { value: 'failure', label: 'system.securityLog.results.failure' },
      ],
    },
    { prop: 'account', label: 'system.securityLog.account', search: true, sortable: true, width: 130 },
    { prop: 'ip', label: 'system.securityLog.ip', search: true, width: 130 },
    { prop: 'clientId', label: 'system.securityLog.clientId', width: 100 },
    { prop: 'grantType', label: 'system.securityLog.grantType', width: 110 },
    { prop: 'detail', label: 'system.securityLog.detail' },
  ],
});
