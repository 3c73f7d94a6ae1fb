import { GRANT_TYPES } from '@sprout/contracts';
import { defineCrud } from '../../../kit/crud';

export { GRANT_TYPES } from '@sprout/contracts';

/**
 * OAuth clients (`/system/client`, platform): a new client's secret and a reset one are
 * answered once, shown once in the result dialog with a copy button, never again.
 */
export const clients = defineCrud({
  code: 'client',
  texts: 'system.client',
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
      search: true,
      sortable: true,
      width: 160,
      rules: {
        required: true,
        max: 64,
        pattern: [/^[A-Za-z0-9_.-]+$/, 'system.client.rules.clientIdFormat'],
      },
    },
    {
      prop: 'clientSecret',
      hide: true,
      // Empty: the server generates one; the mask (editing) keeps the stored one.
      rules: { pattern: [/^(\S{16,128}|\*{6})$/, 'system.client.rules.clientSecretFormat'] },
    },
    {
      prop: 'authorizedGrantTypes',
      type: 'multiselect',
      initial: 'refresh_token,password',
      options: GRANT_TYPES.map((g) => ({ value: g, text: g })),
      rules: { required: true },
    },
    { prop: 'scope', width: 80, initial: 'all', rules: { required: true, max: 100 } },
    { prop: 'accessTokenValidity', type: 'number', width: 210, initial: 3600, rules: { required: true } },
    { prop: 'refreshTokenValidity', type: 'number', hide: true, initial: 604800, rules: { required: true } },
    {
      prop: 'webServerRedirectUri',
      hide: true,
      rules: { max: 1000, pattern: [/^https?:\/\/\S+$/i, 'system.client.rules.redirectUri'] },
    },
    { prop: 'autoapprove', hide: true, rules: { max: 255 } },
    { prop: 'additionalInformation', type: 'textarea', hide: true, rules: { max: 4000 } },
    { prop: 'createTime', form: false, sortable: true, width: 170 },
  ],
});
