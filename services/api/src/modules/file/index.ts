import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { registerMessages } from '@sprout/core/i18n';
import { nextId } from '@sprout/core/ids';
import { crud } from '@sprout/core/permissions/catalog';
import type { ServerContext } from '../../context';
import { fileRoutes } from './files';
import { identify, registerIdentifyRunner, setIdentifyZone } from './identify';
import { fileKinds, kindRoutes } from './kinds';
import { DEMO_TYPES, fileTypes } from './types';

registerMessages({
  zh: {
    'file.kindName': '请输入分类名称',
    'file.sort': '请输入排序（0 及以上的整数）',
    'file.kindTaken': '同一上级下已有分类「{kindName}」',
    'file.kindHasChildren': '分类「{name}」下还有 {count} 个子分类，请先删除子分类',
    'file.kindHasFiles': '分类「{name}」下还有 {count} 个文件，请先删除或移走文件',
    'file.typeName': '请输入类型名称',
    'file.extensions': '请输入扩展名，多个用逗号分隔（如 pdf,docx）',
    'file.maxSize': '请输入大小上限（1–1024 MB）',
    'file.typeTaken': '文件类型已存在：{typeName}',
    'file.kindRequired': '请选择分类',
    'file.attachRequired': '请先上传文件',
    'file.tag': '每个标签最多 32 个字',
    'file.tags': '标签最多 20 个',
    'file.kindMissing': '分类不存在：{kindId}',
    'file.typeRefused': '资源库不接受 .{extension} 文件（可上传：{allowed}）',
    'file.tooLarge': '{type}不能超过 {max}',
    'file.fileMissing': '请选择资源库中的文件',
    'file.extract.image': '图片不做文字识别（不支持 OCR）',
    'file.extract.scanned': 'PDF 没有文字层（扫描件），无法提取文字',
    'file.extract.legacy': '旧版 Office 格式（.doc/.xls/.ppt）不支持，请另存为 .docx/.xlsx 后再上传',
    'file.extract.unsupported': '此类文件不支持文字识别（支持 .docx、.xlsx、.pdf、.txt）',
    'file.extract.broken': '文件已损坏或无法解析',
    'file.extract.tooLarge': '文件超过 20 MB，不做文字识别',
    'file.extract.empty': '文件是空的',
    'file.extract.unavailable': '读取文件失败，请稍后重试',
  },
  en: {
    'file.kindName': 'Please enter the category name',
    'file.sort': 'Please enter the order (a whole number, 0 or more)',
    'file.kindTaken': 'The parent already has a category named {kindName}',
    'file.kindHasChildren': 'The category {name} still has {count} subcategories: delete them first',
    'file.kindHasFiles': 'The category {name} still holds {count} files: delete or move them first',
    'file.typeName': 'Please enter the type name',
    'file.extensions': 'Please enter the extensions, separated by commas (e.g. pdf,docx)',
    'file.maxSize': 'Please enter the largest size (1–1024 MB)',
    'file.typeTaken': 'A file type named {typeName} already exists',
    'file.kindRequired': 'Please choose a category',
    'file.attachRequired': 'Please upload the file first',
    'file.tag': 'A tag has at most 32 characters',
    'file.tags': 'At most 20 tags',
    'file.kindMissing': 'No such category: {kindId}',
    'file.typeRefused': 'The library does not take .{extension} files (allowed: {allowed})',
    'file.tooLarge': '{type} files may not be larger than {max}',
    'file.fileMissing': 'Please choose a file of the library',
    'file.extract.image': 'Images are not recognised (no OCR)',
    'file.extract.scanned': 'The PDF has no text layer (a scan): no text can be extracted',
    'file.extract.legacy':
      'Legacy Office formats (.doc/.xls/.ppt) are not read: save it as .docx/.xlsx and upload it again',
    'file.extract.unsupported': 'This kind of file is not recognised (.docx, .xlsx, .pdf and .txt are)',
    'file.extract.broken': 'The file is damaged or cannot be read',
    'file.extract.tooLarge': 'Files over 20 MB are not recognised',
    'file.extract.empty': 'The file is empty',
    'file.extract.unavailable': 'The file could not be read: please try again later',
  },
});

/** The demo kindergarten's kinds: two roots and their children. */
const DEMO_KINDS: [string, string[]][] = [
  ['教学资源', ['绘本', '音乐', '课件']],
  ['园所文档', ['制度', '通知']],
];

/** The file library (资源库, spec §7 "Files"): kinds, files, file types and text recognition. */
export const fileContext: ServerContext = {
  name: 'file',
  routes: async (app: FastifyInstance) => {
    setIdentifyZone(app.config.TIME_ZONE);
    registerIdentifyRunner(app);
    await app.register(fileKinds);
    await app.register(kindRoutes);
    await app.register(fileRoutes);
    await app.register(fileTypes);
    await app.register(identify);
  },
  menus: [
    {
      section: 'library',
      menus: [
        {
          code: 'file',
          name: '资源文件',
          nameEn: 'Files',
          path: '/file/file',
          icon: 'File',
          sort: 1,
          resource: 'file',
          api: [
            '* /api/file/file/**',
            'GET /api/file/fileKind/kindTree',
            '* /api/blade-resource/oss/endpoint/put-file',
            '* /api/upload/**',
          ],
          buttons: crud('file', '文件', 'file'),
        },
        {
          code: 'file_kind',
          name: '资源分类',
          nameEn: 'Categories',
          path: '/file/fileKind',
          icon: 'Category',
          sort: 2,
          api: ['* /api/file/fileKind/**'],
          buttons: crud('file_kind', '分类', 'category'),
        },
        {
          code: 'file_type',
          name: '文件类型',
          nameEn: 'File types',
          path: '/file/filetype',
          icon: 'FileDescription',
          sort: 3,
          api: ['* /api/file/filetype/**'],
          buttons: crud('file_type', '文件类型', 'file type'),
        },
        {
          code: 'file_identify',
          name: '文件识别',
          nameEn: 'Text recognition',
          path: '/file/fileidentify',
          icon: 'ScanEye',
          sort: 4,
          api: ['* /api/t_file_identify/fileidentify/**', 'GET /api/file/file/**'],
          buttons: crud('file_identify', '识别记录', 'recognition'),
        },
      ],
    },
  ],
  demo: async (trx, world) => {
    const tenantId = world.tenantId;
    let sort = 0;
    for (const [root, children] of DEMO_KINDS) {
      const rootId = nextId();
      await sql`insert into file_kind (tenant_id, id, parent_id, kind_name, sort)
        values (${tenantId}, ${rootId}, 0, ${root}, ${sort++})`.execute(trx);
      for (const [i, child] of children.entries())
        await sql`insert into file_kind (tenant_id, id, parent_id, kind_name, sort)
          values (${tenantId}, ${nextId()}, ${rootId}, ${child}, ${i})`.execute(trx);
    }
    await fileTypes.insert(trx, tenantId, DEMO_TYPES);
  },
};
