import { z } from 'zod';
import { optionalText, requiredText } from '../../http/params';
import { defineResource } from '../../http/resource';

/** Lower-case extensions without dots, comma-separated: ` .PDF, docx` → `pdf,docx`. */
const extensions = z
  .string({ error: '$file.extensions' })
  .transform((v) =>
    v
      .split(/[,，;；\s]+/)
      .map((e) => e.trim().replace(/^\./, '').toLowerCase())
      .filter(Boolean),
  )
  .refine((l) => l.length > 0 && l.length <= 30 && l.every((e) => /^[a-z0-9]{1,16}$/.test(e)), '$file.extensions')
  .transform((l) => [...new Set(l)].join(','));

/** File types (文件类型): what the library accepts — a name, its extensions and the largest file (MB). */
export const fileTypes = defineResource({
  code: 'file_type',
  table: 'file_type',
  path: '/api/file/filetype',
  tag: 'File types',
  label: { zh: '文件类型', en: 'file type' },
  fields: z.object({
    typeName: requiredText(64, '$file.typeName'),
    extensions,
    maxSize: z.preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      z.coerce
        .number({ error: '$file.maxSize' })
        .int('$file.maxSize')
        .min(1, '$file.maxSize')
        .max(1024, '$file.maxSize'),
    ),
    remark: optionalText(255),
  }),
  filters: { typeName: 'like', extensions: 'like' },
  order: ['typeName'],
  unique: { fields: ['typeName'], message: 'file.typeTaken' },
  select: true,
});

/** The demo kindergarten's types (and a sensible start for any tenant). */
export const DEMO_TYPES = [
  { typeName: '图片', extensions: 'jpg,jpeg,png,gif,webp', maxSize: 10, remark: '照片、绘本插图' },
  { typeName: 'PDF 文档', extensions: 'pdf', maxSize: 50, remark: '课件、制度' },
  { typeName: 'Word 文档', extensions: 'docx,doc', maxSize: 20, remark: '教案、通知' },
  { typeName: 'Excel 表格', extensions: 'xlsx,xls', maxSize: 20, remark: '名单、统计' },
];
