/** The code generator (issue 21). */
export const zhCN = {
  code: {
    empty: '还没有代码生成配置：点「新增」填写模块名称、表名和模块编码，再在下方「生成代码」中选择它预览或下载。',
    name: '代码生成配置',
    codeName: '模块名称',
    datasourceId: '数据源（0 为主库）',
    tableName: '表名',
    moduleName: '模块编码',
    menuParent: '上级菜单',
    treeMode: '表格形式',
    listColumns: '列表显示的列（逗号分隔，空为全部）',
    searchColumns: '搜索的列（逗号分隔）',
    editColumns: '表单编辑的列（逗号分隔，空为全部）',
    remark: '备注',
    createTime: '创建时间',
    modes: { list: '列表', tree: '树' },
    rules: {
      codeName: '请输入模块名称',
      tableName: '请输入表名',
      tableFormat: '小写字母、数字和下划线，字母开头',
      moduleName: '请输入模块编码',
      moduleFormat: '小写字母和数字，字母开头',
      menuParent: '请选择上级菜单',
    },
  },
  gen: {
    title: '生成代码',
    pick: '选择配置',
    preview: '预览',
    download: '下载 zip',
    edits: '还需在共享文件中各加一行',
    after: '在此行之后',
  },
};

export type CodegenMessages = typeof zhCN;
