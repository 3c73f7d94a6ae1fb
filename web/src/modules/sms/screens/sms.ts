import { defineCrud } from '../../../kit/crud';

const HTTP = { category: ['http'] } as const;

/**
 * SMS configurations (`/blade-resource/sms`, menu `sms`): the category decides the fields (a
 * log configuration has none to fill; an HTTP provider its endpoint, template, keys); the
 * secret is a password field the server never answers (blank on edit keeps it). Enable is a
 * row action on disabled rows; "send test" a dialog of numbers and parameters.
 */
export const smsConfigs = defineCrud({
  code: 'sms',
  texts: 'sms.config',
  resource: '/blade-resource/sms',
  actions: [
    {
      key: 'enable',
      path: 'enable',
      button: 'sms_enable',
      label: 'sms.config.enable',
      confirm: 'sms.config.enableConfirm',
      icon: 'check',
      when: { status: 1 },
    },
  ],
  formActions: [
    {
      key: 'send',
      path: 'endpoint/send-message',
      button: 'sms_send',
      label: 'sms.config.send',
      scope: 'row',
      idParam: 'id',
      columns: [
        {
          prop: 'phones',
          label: 'sms.config.phones',
          rules: {
            required: 'sms.config.rules.phones',
            pattern: [/^1[3-9]\d{9}([,，\s]+1[3-9]\d{9})*$/, 'sms.config.rules.phonesFormat'],
          },
        },
        {
          prop: 'params',
          label: 'sms.config.params',
          type: 'textarea',
          initial: '{"code":"1234"}',
          rules: { max: 4000, pattern: [/^\{[\s\S]*\}$/, 'sms.config.rules.params'] },
        },
      ],
    },
  ],
  columns: [
    {
      prop: 'smsCode',
      search: true,
      sortable: true,
      width: 150,
      rules: { required: true, max: 64, pattern: [/^[A-Za-z0-9_.-]+$/, 'sms.config.rules.smsCodeFormat'] },
    },
    {
      prop: 'category',
      type: 'select',
      search: true,
      width: 190,
      initial: 'log',
      options: [
        { value: 'log', label: 'sms.config.categories.log' },
        { value: 'http', label: 'sms.config.categories.http' },
      ],
      rules: { required: true },
    },
    { prop: 'templateId', width: 130, showWhen: HTTP, rules: { required: true, max: 64 } },
    { prop: 'signName', width: 120, rules: { max: 64 } },
    {
      prop: 'endpoint',
      hide: true,
      showWhen: HTTP,
      rules: { required: true, max: 1000, pattern: [/^https?:\/\/\S+$/i, 'sms.config.rules.endpointFormat'] },
    },
    { prop: 'accessKey', hide: true, showWhen: HTTP, rules: { required: true, max: 255 } },
    { prop: 'secretKey', type: 'password', hide: true, showWhen: HTTP, rules: { max: 255 } },
    { prop: 'regionId', hide: true, showWhen: HTTP, rules: { max: 64 } },
    {
      prop: 'status',
      type: 'select',
      form: false,
      search: true,
      width: 100,
      options: [
        { value: 1, label: 'sms.config.statuses.off' },
        { value: 2, label: 'sms.config.statuses.on' },
      ],
      badges: { '1': 'gray', '2': 'teal' },
    },
    { prop: 'remark', type: 'textarea', rules: { max: 255 } },
  ],
});

/** The message log (`/blade-resource/sms/log/list`, newest first): read only, search phone, status and a range of days (both ends included). */
export const smsLog = defineCrud({
  texts: 'sms.log',
  resource: '/blade-resource/sms/log',
  testId: 'sms-log-page',
  buttons: {},
  columns: [
    { prop: 'createTime', form: false, width: 170, search: 'range' },
    { prop: 'phone', search: true, width: 130 },
    {
      prop: 'status',
      type: 'select',
      search: true,
      width: 90,
      options: [
        { value: 'sent', label: 'sms.log.statuses.sent' },
        { value: 'failed', label: 'sms.log.statuses.failed' },
      ],
      badges: { sent: 'teal', failed: 'red' },
    },
    { prop: 'smsCode', width: 120 },
    { prop: 'templateId', width: 110 },
    { prop: 'params' },
    { prop: 'reason' },
    { prop: 'senderName', width: 110 },
  ],
});
