/**
 * The spec's lookup enumerations (§3 "Lookup enumerations") as business dictionaries every
 * tenant gets, sealed: their codes are what records store. Each: the dictionary's code and
 * name, then its entries' keys (1, 2, … in order) and values. docs/API.md "Dictionaries".
 */
export interface Lookup {
  code: string;
  name: string;
  /** The English name, kept in the dictionary's remark. */
  en: string;
  values: readonly string[];
}

/** The 56 nationalities in the order of GB 3304 (codes 1–56), then 57 其他. */
const ETHNIC_GROUPS = [
  '汉族',
  '蒙古族',
  '回族',
  '藏族',
  '维吾尔族',
  '苗族',
  '彝族',
  '壮族',
  '布依族',
  '朝鲜族',
  '满族',
  '侗族',
  '瑶族',
  '白族',
  '土家族',
  '哈尼族',
  '哈萨克族',
  '傣族',
  '黎族',
  '傈僳族',
  '佤族',
  '畲族',
  '高山族',
  '拉祜族',
  '水族',
  '东乡族',
  '纳西族',
  '景颇族',
  '柯尔克孜族',
  '土族',
  '达斡尔族',
  '仫佬族',
  '羌族',
  '布朗族',
  '撒拉族',
  '毛南族',
  '仡佬族',
  '锡伯族',
  '阿昌族',
  '普米族',
  '塔吉克族',
  '怒族',
  '乌孜别克族',
  '俄罗斯族',
  '鄂温克族',
  '德昂族',
  '保安族',
  '裕固族',
  '京族',
  '塔塔尔族',
  '独龙族',
  '鄂伦春族',
  '赫哲族',
  '门巴族',
  '珞巴族',
  '基诺族',
  '其他',
] as const;

export const LOOKUPS: readonly Lookup[] = [
  { code: 'ethnic', name: '民族', en: 'Ethnic group', values: ETHNIC_GROUPS },
  { code: 'staffing', name: '编制', en: 'Staffing', values: ['在编', '不在编'] },
  { code: 'political', name: '政治面貌', en: 'Political status', values: ['中共党员', '共青团员', '群众'] },
  {
    code: 'education',
    name: '学历',
    en: 'Education',
    values: ['博士', '研究生', '本科', '大专', '中专', '高中'],
  },
  { code: 'yes_no', name: '是否', en: 'Yes/no', values: ['是', '否'] },
  { code: 'social_work', name: '社工资格', en: 'Social-work qualification', values: ['社会工作者', '社会工作师'] },
  {
    code: 'mandarin',
    name: '普通话等级',
    en: 'Mandarin level',
    values: ['一级甲等', '一级乙等', '二级甲等', '二级乙等'],
  },
  {
    code: 'activity_type',
    name: '活动类型',
    en: 'Activity type',
    values: ['集体教学', '户外活动', '游戏活动', '自主游戏'],
  },
  { code: 'domain', name: '领域', en: 'Domain', values: ['科学', '社会', '语言', '健康', '艺术'] },
];
