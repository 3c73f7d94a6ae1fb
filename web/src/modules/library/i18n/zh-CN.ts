/**
 * The `library` namespace (资源库: files, kinds, file types, text recognition), in Chinese (the
 * default): `t('library.<key>')`. `en.ts` has exactly these keys (its type says so).
 */
export const zhCN = {
  file: {
    name: '文件',
    fileName: '文件名称',
    allKinds: '全部分类',
    kindId: '所属分类',
    kindName: '分类',
    extension: '类型',
    size: '大小（字节）',
    mime: '格式',
    tags: '标签',
    remark: '备注',
    uploader: '上传人',
    createTime: '上传时间',
    rules: {
      name: '请输入文件名称',
      kindId: '请选择分类',
    },
    upload: '上传文件',
    uploadTitle: '上传到资源库',
    choose: '选择文件',
    chooseHint: '图片、PDF、Word、Excel 等，按文件类型的大小上限',
    saving: '正在保存…',
    uploaded: '「{{name}}」已上传',
    noFile: '请选择要上传的文件',
    noKind: '请选择分类',
    tagsHint: '多个标签用逗号分隔',
    preview: '预览',
    download: '下载',
    noPreview: '此类文件不能在线预览，请下载后查看',
  },
  kind: {
    name: '分类',
    kindName: '分类名称',
    sort: '排序',
    parentId: '上级分类',
    remark: '备注',
    rules: {
      kindName: '请输入分类名称',
      sort: '请输入排序',
    },
  },
  type: {
    name: '文件类型',
    typeName: '类型名称',
    extensions: '扩展名',
    maxSize: '大小上限（MB）',
    remark: '备注',
    createTime: '创建时间',
    rules: {
      typeName: '请输入类型名称',
      extensions: '请输入扩展名，多个用逗号分隔',
      maxSize: '请输入大小上限',
    },
  },
  identify: {
    name: '识别记录',
    fileName: '文件',
    status: '状态',
    pages: '页数/工作表',
    error: '原因',
    content: '识别文字',
    createTime: '识别时间',
    finishTime: '完成时间',
    statuses: {
      running: '识别中',
      success: '成功',
      failed: '失败',
    },
    recognise: '识别文件',
    recogniseTitle: '识别资源库文件的文字',
    chooseFile: '选择文件',
    start: '开始识别',
    done: '识别完成',
    view: '查看文字',
    empty: '（没有文字）',
    note: '支持 .docx、.xlsx、带文字层的 PDF 和 .txt；图片（不做 OCR）、扫描版 PDF、旧版 .doc/.xls/.ppt 不能识别。',
  },
};

/** Its shape (every text a `string`): what `en.ts` must match. */
export type LibraryMessages = typeof zhCN;
