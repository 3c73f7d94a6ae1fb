/**
 * The `crud` namespace (the console screens' kit, `web/src/kit/crud/`), in Chinese (the
 * default): `t('crud.<key>')`. `en.ts` has exactly these keys (its type says so).
 */
export const zhCN = {
  sheet: {
    excel: 'Excel',
    import: '导入',
    export: '导出',
    template: '下载导入模板',
    file: 'Excel 文件',
    pick: '请选择 .xlsx 文件',
    xlsxOnly: '只能上传 .xlsx 格式的 Excel 文件',
    upload: '上传',
    validating: '正在校验：{{done}} / {{total}}',
    writing: '正在写入：{{done}} / {{total}}',
    done: '导入成功，共 {{total}} 行',
    failed: '导入失败，未写入任何数据',
    row: '行',
    column: '列',
    reason: '原因',
    again: '重新选择文件',
  },
  search: {
    submit: '搜索',
    reset: '清空',
    placeholder: '请输入{{label}}',
    selectPlaceholder: '请选择{{label}}',
    rangePlaceholder: '开始日期 ~ 结束日期',
  },
  actions: {
    title: '操作',
    add: '新增',
    edit: '编辑',
    view: '查看',
    delete: '删除',
    batchDelete: '批量删除',
    refresh: '刷新',
    addUnder: '新增下级',
  },
  dialog: {
    add: '新增{{name}}',
    edit: '编辑{{name}}',
    view: '查看{{name}}',
    save: '保存',
    update: '修改',
    cancel: '取消',
    close: '关闭',
    loadFailed: '数据加载失败，请关闭后重试',
  },
  confirm: {
    title: '提示',
    deleteSelected: '确定将选择数据删除？',
    deleteOne: '确定删除这条数据？',
    ok: '确定',
    cancel: '取消',
  },
  notify: {
    selectFirst: '请选择至少一条数据',
    added: '新增成功',
    updated: '修改成功',
    deleted: '删除成功',
    done: '操作成功',
  },
  table: {
    empty: '暂无数据',
    loading: '正在加载…',
    pageSize: '每页条数',
    range: '第 {{from}}–{{to}} 条，共 {{total}} 条',
    selected: '已选择 {{count}} 项',
    clearSelection: '清空',
  },
  secret: {
    title: '请保存密钥',
    record: '{{label}}：',
    warnTitle: '密钥只显示这一次',
    warn: '关闭本窗口后将无法再次查看此密钥（服务器只保存其摘要）。请立即复制并妥善保存；如果遗失，只能重置密钥。',
    copy: '复制',
    copied: '已复制',
    done: '我已保存',
  },
  children: {
    choose: '请在左侧（或上方）选择一个字典',
  },
  icon: {
    search: '搜索图标',
    clear: '清除图标',
    none: '没有匹配的图标',
  },
  tree: {
    expand: '展开',
    collapse: '收起',
  },
  validation: {
    max: '最多 {{max}} 个字符',
    select: '请选择',
  },
};

/** Its shape (every text a `string`): what `en.ts` must match. */
export type CrudMessages = typeof zhCN;
