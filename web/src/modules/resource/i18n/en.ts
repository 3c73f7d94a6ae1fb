import type { ResourceMessages } from './zh-CN';

export const en: ResourceMessages = {
  oss: {
    name: 'storage configuration',
    category: 'Storage kind',
    ossCode: 'Code',
    endpoint: 'Endpoint',
    bucketName: 'Bucket',
    region: 'Region',
    accessKey: 'Access key',
    secretKey: 'Secret key',
    appId: 'App ID',
    remark: 'Remark',
    status: 'Status',
    createTime: 'Created',
    categories: { local: 'Local disk', s3: 'S3 storage' },
    statuses: { disabled: 'Disabled', enabled: 'Enabled' },
    enable: 'Enable',
    enableConfirm:
      'Enable this storage configuration? New uploads will be stored here, and the other configurations are disabled.',
    rules: {
      category: 'Please choose the storage kind',
      ossCode: 'Please enter the code',
      ossCodeFormat: 'Letters, digits, underscores, dots and hyphens only',
      endpointFormat: 'The endpoint starts with http:// or https://',
      bucketName: 'Please enter the bucket',
      bucketNameFormat: '3 to 63 lower-case letters, digits, dots or hyphens',
      accessKey: 'Please enter the access key',
    },
  },
  attach: {
    name: 'attachment',
    thumbLink: 'Preview',
    originalName: 'File name',
    extension: 'Type',
    attachSize: 'Size',
    uploader: 'Uploaded by',
    createTime: 'Uploaded',
    upload: 'Upload a file',
    uploaded: 'Uploaded: {{name}}',
    download: 'Download',
  },
};
