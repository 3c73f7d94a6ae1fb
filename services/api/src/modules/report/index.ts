import { registerMessages } from '@sprout/core/i18n';
import { crud } from '@sprout/core/permissions/catalog';
import type { ServerContext } from '../../context';
import { BASE, reportRoutes } from './report-routes';
import { seedShippedReports } from './shipped';

registerMessages({
  zh: {
    'report.name': '请输入报表名称',
    'report.query': '请输入报表查询语句',
    'report.queryTooLong': '查询语句过长（最多 20000 个字符）',
    'report.paramName': '参数名须以字母开头，只含字母、数字和下划线',
    'report.paramLabel': '请输入参数的显示名称',
    'report.paramType': '参数类型须为 日期、班级、部门、教师、文本 或 数字',
    'report.paramTwice': '参数名重复：{name}',
    'report.columnKey': '请选择列对应的查询结果字段',
    'report.columnLabel': '请输入列标题',
    'report.chartType': '图表类型须为 无、柱状图、折线图 或 饼图',
    'report.chartX': '请为图表选择横轴（分类）字段，须是报表的列',
    'report.chartY': '请为图表选择数值字段，须是报表的列',
    'report.unknownColumn': '查询结果中没有字段 {key}（结果字段：{columns}）',
    'report.duplicateColumn': '查询结果中字段名重复：{name}，请用 as 起别名',
    'report.sql.empty': '请输入报表查询语句',
    'report.sql.syntax': '查询语句有语法错误：第 {position} 个字符附近（{near}）',
    'report.sql.oneStatement': '报表只能有一条查询语句，这里有 {count} 条',
    'report.sql.notSelect': '报表只能是 SELECT 查询，不能是 {kind}',
    'report.sql.notRead': '报表查询只能读取数据，不能使用 {what}',
    'report.sql.node': '报表查询中不允许使用 {kind}',
    'report.sql.qualified': '报表只能查询报表视图，不能指定模式：{name}',
    'report.sql.relation': '报表只能查询报表视图（{views}），不能查询 {name}',
    'report.sql.function': '报表查询中不允许调用函数 {name}',
    'report.sql.cast': '报表查询中不允许转换为类型 {type}',
    'report.sql.param': '查询使用了参数 {n}，但报表只定义了 {declared} 个参数',
    'report.valueRequired': '请填写参数：{label}',
    'report.badValue.date': '{label} 须为 yyyy-MM-dd 格式的日期',
    'report.badValue.number': '{label} 须为数字',
    'report.badValue.text': '{label} 过长（最多 255 个字符）',
    'report.badValue.class': '{label} 须为班级编号',
    'report.badValue.dept': '{label} 须为部门编号',
    'report.badValue.teacher': '{label} 须为教师编号',
    'report.timeout': '报表查询超过 {seconds} 秒未完成，已取消，请缩小日期范围或简化查询',
    'report.failed': '报表查询无法执行（错误代码 {code}）',
    'report.unknownField': '查询中引用了不存在的字段：{name}',
    'report.grouping': '字段 {name} 须出现在 group by 中或用于聚合函数',
    'report.types': '查询中的值与运算或函数的类型不符，请检查参数与比较的类型（可用 ::date 等转换）',
    'report.dataError': '查询中的数据无法按所写的方式计算或转换（如除以零、日期格式）',
  },
  en: {
    'report.name': 'Please enter the report name',
    'report.query': 'Please enter the report query',
    'report.queryTooLong': 'The query is too long (20000 characters at most)',
    'report.paramName': 'A parameter name starts with a letter and holds only letters, digits and underscores',
    'report.paramLabel': 'Please enter the parameter’s label',
    'report.paramType': 'A parameter is a date, class, department, teacher, text or number',
    'report.paramTwice': 'Two parameters are named {name}',
    'report.columnKey': 'Please choose the query field of the column',
    'report.columnLabel': 'Please enter the column title',
    'report.chartType': 'The chart is none, bar, line or pie',
    'report.chartX': 'Please choose the chart’s category field, one of the report’s columns',
    'report.chartY': 'Please choose the chart’s value fields, columns of the report',
    'report.unknownColumn': 'The query has no field {key} (its fields: {columns})',
    'report.duplicateColumn': 'The query answers two fields named {name}: name them apart with as',
    'report.sql.empty': 'Please enter the report query',
    'report.sql.syntax': 'The query has a syntax error near character {position} ({near})',
    'report.sql.oneStatement': 'A report is one query; this has {count} statements',
    'report.sql.notSelect': 'A report is a SELECT query, not {kind}',
    'report.sql.notRead': 'A report query only reads: {what} is not allowed',
    'report.sql.node': 'A report query may not use {kind}',
    'report.sql.qualified': 'A report reads only the reporting views, without a schema: {name}',
    'report.sql.relation': 'A report reads only the reporting views ({views}), not {name}',
    'report.sql.function': 'A report query may not call the function {name}',
    'report.sql.cast': 'A report query may not cast to the type {type}',
    'report.sql.param': 'The query uses the parameter {n} but the report declares only {declared}',
    'report.valueRequired': 'Please fill in the parameter {label}',
    'report.badValue.date': '{label} must be a date as yyyy-MM-dd',
    'report.badValue.number': '{label} must be a number',
    'report.badValue.text': '{label} is too long (255 characters at most)',
    'report.badValue.class': '{label} must be a class id',
    'report.badValue.dept': '{label} must be a department id',
    'report.badValue.teacher': '{label} must be a teacher id',
    'report.timeout':
      'The report query ran longer than {seconds} seconds and was cancelled: narrow the dates or simplify it',
    'report.failed': 'The report query cannot run (error code {code})',
    'report.unknownField': 'The query names a field that does not exist: {name}',
    'report.grouping': 'The field {name} must be in the group by or inside an aggregate',
    'report.types':
      'A value in the query does not fit its operator or function: check the types of parameters and comparisons (cast with ::date and the like)',
    'report.dataError':
      'The query’s data cannot be computed or converted as written (a division by zero, a date’s form)',
  },
});

const post = (...calls: string[]) => calls.map((c) => `POST ${BASE}/${c}`);

/**
 * Reports (issue 21, spec §7 `/blade-report/report/rest`): each tenant's saved reports over the
 * reporting views (views.ts), their designer's preview, runs and Excel exports; four shipped
 * reports seeded into every tenant.
 */
export const reportContext: ServerContext = {
  name: 'report',
  routes: async (app) => {
    await reportRoutes(app);
  },
  menus: [
    {
      section: 'system',
      menus: [
        {
          code: 'report',
          name: '报表管理',
          nameEn: 'Reports',
          path: '/report/reportlist',
          icon: 'ReportAnalytics',
          sort: 17,
          api: [`GET ${BASE}/**`, ...post('run')],
          buttons: crud('report', '报表', 'report', [], {
            add: post('submit', 'preview'),
            edit: post('submit', 'preview'),
            delete: post('remove'),
          }),
        },
      ],
    },
  ],
  tenantSeed: seedShippedReports,
};
