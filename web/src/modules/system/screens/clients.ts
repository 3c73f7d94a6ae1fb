import { defineCrud } from '../../../kit/crud';

/** The grant types a client may list (docs/API.md "Clients"), protocol names in every language. */
export const GRANT_TYPES = [
  'refresh_token',
  'password',
  'authorization_code',
  'captcha',
  'social',
  'client_credentials',
  'implicit',
] as const;

/**
 * OAuth clients (`/system/client`, platform): a new client's secret and a reset one are
 * answered once, shown once in the result dialog with a copy button, never again.
 */
export const clients = defineCrud({
  resource: '/blade-system/client',
  name: 'system.client.name',
  testId: 'client-page',
  buttons: { add: 'client_add', edit: 'client_edit', delete: 'client_delete', view: 'client_view' },
  revealOnAdd: { prop: 'clientSecret', title: 'clientId' },
  actions: [
    {
      key: 'reset-secret',
      path: 'reset-secret',
      button: 'client_secret',
      label: 'system.client.resetSecret',
      confirm: 'system.client.resetConfirm',
      icon: 'key',
      reveals: 'clientSecret',
    },
  ],
  columns: [
    {
      prop: 'clientId',
      label: 'system.client.clientId',
      search: true,
      sortable: true,
      width: 160,
      rules: {
        required: 'system.client.rules.clientId',
        max: 64,
        pattern: [/^[A-Za-z0-9_.-]+$/, 'system.client.rules.clientIdFormat'],
      },
    },
    {
      prop: 'clientSecret',
      label: 'system.client.clientSecret',
      hide: true,
      // Empty: the server generates one; the mask (editing) keeps the stored one.
      rules: { pattern: [/^(\S{16,128}|\*{6})$/, 'system.client.rules.clientSecretFormat'] },
    },
    {
      prop: 'authorizedGrantTypes',
      label: 'system.client.authorizedGrantTypes',
      type: 'multiselect',
      initial: 'refresh_token,password',
      options: GRANT_TYPES.map((g) => ({ value: g, text: g })),
      rules: { required: 'system.client.rules.authorizedGrantTypes' },
    },
    {
      prop: 'scope',
      label: 'system.client.scope',
      width: 80,
      initial: 'all',
      rules: { required: 'system.client.rules.scope', max: 100 },
    },
    {
      prop: 'accessTokenValidity',
      label: 'system.client.accessTokenValidity',
      type: 'number',
      width: 130,
      initial: 3600,
      rules: { required: 'system.client.rules.accessTokenValidity' },
    },
    {
      prop: 'refreshTokenValidity',
      label: 'system.client.refreshTokenValidity',
      type: 'number',
      hide: true,
      initial: 604800,
      rules: { required: 'system.client.rules.refreshTokenValidity' },
    },
    {
      prop: 'webServerRedirectUri',
      label: 'system.client.webServerRedirectUri',
      hide: true,
      rules: { max: 1000, pattern: [/^https?:\/\/\S+$/i, 'system.client.rules.redirectUri'] },
    },
    { prop: 'autoapprove', label: 'system.client.autoapprove', hide: true, rules: { max: 255 } },
    {
      prop: 'additionalInformation',
      label: 'system.client.additionalInformation',
      type: 'textarea',
      hide: true,
      rules: { max: 4000 },
    },
    { prop: 'createTime', label: 'system.client.createTime', form: false, sortable: true, width: 170 },
  ],
});
