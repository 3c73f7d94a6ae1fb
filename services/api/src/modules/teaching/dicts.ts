import { type FamilyDict, familyDictSeeder } from '../records';

/** The teaching families' business dictionaries (each tenant's, editable): key, Chinese, English. */
export const TEACHING_DICTS: readonly FamilyDict[] = [
  {
    code: 'teacher_plan_type',
    name: '教师计划类型',
    en: 'Teacher plan type',
    entries: [
      ['term', '学期计划', 'Term plan'],
      ['development', '个人发展规划', 'Personal development plan'],
    ],
  },
  {
    code: 'research_form',
    name: '教研形式',
    en: 'Research activity form',
    entries: [
      ['prep', '集体备课', 'Joint lesson preparation'],
      ['observe', '观摩研讨', 'Observation and discussion'],
      ['lecture', '专题讲座', 'Lecture'],
      ['case', '案例分析', 'Case study'],
    ],
  },
  {
    code: 'project_level',
    name: '课题级别',
    en: 'Project level',
    entries: [
      ['national', '国家级', 'National'],
      ['province', '省级', 'Provincial'],
      ['city', '市级', 'City'],
      ['district', '区级', 'District'],
      ['school', '园级', 'Kindergarten'],
    ],
  },
  {
    code: 'project_status',
    name: '课题状态',
    en: 'Project status',
    entries: [
      ['applying', '申报中', 'Applying'],
      ['ongoing', '研究中', 'In progress'],
      ['concluded', '已结题', 'Concluded'],
    ],
  },
];

/** Gives a tenant the dictionaries it never had (a code it had, even removed, is not given again). */
export const seedTeachingDicts = familyDictSeeder(TEACHING_DICTS, 220);
