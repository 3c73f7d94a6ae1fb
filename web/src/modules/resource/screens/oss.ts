import { defineCrud } from '../../../kit/crud';

/** The fields only an S3-protocol store takes (the platform's disk needs none of them). */
const s3Only = { shownWhen: { category: ['s3'] } } as const;

/**
 * Storage configurations (`/resource/oss`): where the tenant's files go. One is enabled at a
 * time (the row action `enable`, which the server refuses with the storage's reason when the
 * bucket cannot be reached); the secret key is a password input the server never answers
 * (it shows the mask; left as it is, the stored key stays).
 */
export const oss = defineCrud({
  code: 'oss',
  resource: '/blade-resource/oss',
  texts: 'resource.oss',
  actions: [
    {
      key: 'enable',
      path: 'enable',
      button: 'oss_enable',
      label: 'resource.oss.enable',
      confirm: 'resource.oss.enableConfirm',
      icon: 'check',
      when: { status: 1 },
    },
  ],
  columns: [
    {
      prop: 'category',
      type: 'select',
      search: true,
      width: 170,
      initial: 'local',
      options: [
        { value: 'local', label: 'resource.oss.categories.local' },
        { value: 's3', label: 'resource.oss.categories.s3' },
      ],
      badges: { local: 'gray', s3: 'blue' },
      rules: { required: true },
    },
    {
      prop: 'ossCode',
      search: true,
      sortable: true,
      width: 160,
      rules: { required: true, max: 64, pattern: [/^[A-Za-z0-9_.-]+$/, 'resource.oss.rules.ossCodeFormat'] },
    },
    {
      prop: 'endpoint',
      ...s3Only,
      rules: { max: 255, pattern: [/^https?:\/\/\S+$/i, 'resource.oss.rules.endpointFormat'] },
    },
    {
      prop: 'bucketName',
      width: 160,
      ...s3Only,
      rules: {
        required: true,
        max: 63,
        pattern: [/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'resource.oss.rules.bucketNameFormat'],
      },
    },
    { prop: 'region', hide: true, ...s3Only, rules: { max: 64 } },
    { prop: 'accessKey', hide: true, ...s3Only, rules: { required: true, max: 255 } },
    { prop: 'secretKey', type: 'password', hide: true, ...s3Only, rules: { max: 255 } },
    { prop: 'appId', hide: true, ...s3Only, rules: { max: 255 } },
    { prop: 'remark', type: 'textarea', hide: true, rules: { max: 255 } },
    {
      prop: 'status',
      type: 'select',
      form: false,
      width: 110,
      options: [
        { value: 1, label: 'resource.oss.statuses.disabled' },
        { value: 2, label: 'resource.oss.statuses.enabled' },
      ],
      badges: { 1: 'gray', 2: 'green' },
    },
  ],
});
