import { z } from 'zod';
import { NullableIdSchema, optionalText, requiredText } from '../../http/params';
import { rowSecret } from '../../http/secret';

/** Our categories: the platform's disk, or any S3-protocol store. */
export const OSS_CATEGORIES = ['local', 's3'] as const;
export type OssCategory = (typeof OSS_CATEGORIES)[number];

/**
 * BladeX's numbers (1 MinIO, 2 Qiniu, 3 Aliyun, 4 Tencent): every one of them speaks the S3
 * protocol, so a stock Saber client's number is an `s3` configuration.
 */
const BLADEX_CATEGORY: Record<string, OssCategory> = { '1': 's3', '2': 's3', '3': 's3', '4': 's3' };

const Category = z.preprocess(
  (v) => {
    const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim().toLowerCase() : v;
    return typeof s === 'string' ? (BLADEX_CATEGORY[s] ?? s) : s;
  },
  z.enum(OSS_CATEGORIES, { error: '$oss.category' }),
);

/** A bucket name as S3 allows it (3 to 63 lower-case letters, digits, dots, hyphens). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** BladeX's oss fields as `submit` takes them (the secret apart: oss-routes.ts); the builder's answer. */
export const OssFields = z.object({
  category: Category,
  ossCode: requiredText(64, '$oss.ossCode').regex(/^[A-Za-z0-9_.-]*$/, '$oss.ossCodeFormat'),
  endpoint: optionalText(255).refine((v) => v === null || /^https?:\/\/[^\s/]+(\/[^\s]*)?$/i.test(v), {
    message: '$oss.endpointFormat',
  }),
  bucketName: optionalText(255).refine((v) => v === null || BUCKET.test(v), { message: '$oss.bucketNameFormat' }),
  accessKey: optionalText(255),
  appId: optionalText(255),
  region: optionalText(64).refine((v) => v === null || /^[A-Za-z0-9-]+$/.test(v), { message: '$oss.regionFormat' }),
  remark: optionalText(255),
});

/** A storage's secret key: wrapped to its row, never answered, kept when sent blank or masked. */
export const ossSecret = rowSecret('oss', '$oss.secretKeyFormat');

/** What submit takes: the fields, the secret, an id when editing; an S3 store needs its bucket and key. */
export const OssSubmit = OssFields.extend({ id: NullableIdSchema.optional(), secretKey: ossSecret.input }).superRefine(
  (v, ctx) => {
    if (v.category !== 's3') return;
    if (!v.bucketName) ctx.addIssue({ code: 'custom', path: ['bucketName'], message: '$oss.bucketName' });
    if (!v.accessKey) ctx.addIssue({ code: 'custom', path: ['accessKey'], message: '$oss.accessKey' });
  },
);
export type OssSubmit = z.output<typeof OssSubmit>;
