import { z } from 'zod';
import { registerMessages } from '@sprout/core/i18n';
import { LOOKUPS } from '../dict';
import { DateSchema, IdSchema, optionalText, PHONE, requiredText } from '../../http/params';
import type { SheetChoice, SheetColumn } from '../../http/sheet';

registerMessages({
  zh: {
    'teacher.teacherNo': '请输入教师编号',
    'teacher.name': '请输入教师姓名',
    'teacher.gender': '请选择性别（1 男，2 女）',
    'teacher.dict': '请从字典“{dict}”中选择（1–{max}）',
    'teacher.phone': '请输入 11 位手机号码',
    'teacher.noTaken': '教师编号已存在：{teacherNo}',
    'teacher.userTaken': '该账号已有教师档案',
    'teacher.unknownUser': '账号不存在：{id}',
    'teacher.unknownDept': '部门不存在：{id}',
    'teacher.unknownPost': '岗位不存在：{id}',
    'teacher.unknownAccount': '账号不存在：{account}',
    'teacher.unknownDeptName': '部门不存在：{name}',
    'teacher.unknownPostName': '岗位不存在：{name}',
    'teacher.noteNo': '必填，租户内唯一',
  },
  en: {
    'teacher.teacherNo': 'Please enter the teacher number',
    'teacher.name': 'Please enter the teacher’s name',
    'teacher.gender': 'Please choose the gender (1 male, 2 female)',
    'teacher.dict': 'Please choose from the dictionary “{dict}” (1–{max})',
    'teacher.phone': 'Please enter an 11-digit mobile number',
    'teacher.noTaken': 'The teacher number {teacherNo} is already taken',
    'teacher.userTaken': 'This account already has a teacher record',
    'teacher.unknownUser': 'No such account: {id}',
    'teacher.unknownDept': 'No such department: {id}',
    'teacher.unknownPost': 'No such post: {id}',
    'teacher.unknownAccount': 'No such account: {account}',
    'teacher.unknownDeptName': 'No such department: {name}',
    'teacher.unknownPostName': 'No such post: {name}',
    'teacher.noteNo': 'Required, unique in the kindergarten',
  },
});

/** Blank (Saber's `x=`) or absent → null. */
const blankNull = (v: unknown) => (v === '' || v === undefined ? null : v);

/** A business dictionary's code (spec §3 lookups: `1`…`n`), or null. */
const lookupCode = (code: string) => {
  const l = LOOKUPS.find((x) => x.code === code);
  if (!l) throw new Error(`no lookup ${code}`);
  const params = { dict: l.name, max: l.values.length };
  return z.preprocess(
    blankNull,
    z.coerce
      .number({ error: '$teacher.dict' })
      .nullable()
      .refine((v) => v === null || (Number.isInteger(v) && v >= 1 && v <= l.values.length), {
        message: '$teacher.dict',
        params,
      }),
  );
};

/** A yyyy-mm-dd date, or null (blank). */
const optionalDate = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() || null : (v ?? null)),
  DateSchema.nullable(),
);

/** The fields of a teacher record (DOMAIN.md 教师档案) with the spec's lookups; ids of the account, dept and post. */
export const TeacherFields = z.object({
  teacherNo: requiredText(32, '$teacher.teacherNo'),
  name: requiredText(64, '$teacher.name'),
  userId: z.preprocess(blankNull, IdSchema.nullable()),
  gender: z.preprocess(
    blankNull,
    z.coerce.number().int().min(1, '$teacher.gender').max(2, '$teacher.gender').nullable(),
  ),
  birthDate: optionalDate,
  ethnicity: lookupCode('ethnic'),
  staffing: lookupCode('staffing'),
  politicalStatus: lookupCode('political'),
  education: lookupCode('education'),
  major: optionalText(64),
  graduateSchool: optionalText(128),
  teacherCertificate: lookupCode('yes_no'),
  socialWorkQualification: lookupCode('social_work'),
  mandarinLevel: lookupCode('mandarin'),
  professionalTitle: optionalText(64),
  hireDate: optionalDate,
  phone: optionalText(11).refine((v) => !v || PHONE.test(v), '$teacher.phone'),
  deptId: z.preprocess(blankNull, IdSchema.nullable()),
  postId: z.preprocess(blankNull, IdSchema.nullable()),
  remark: optionalText(500),
});
export type TeacherValues = z.output<typeof TeacherFields>;

/** The dictionary-coded fields and their lookups. */
export const CODED = {
  ethnicity: 'ethnic',
  staffing: 'staffing',
  politicalStatus: 'political',
  education: 'education',
  teacherCertificate: 'yes_no',
  socialWorkQualification: 'social_work',
  mandarinLevel: 'mandarin',
} as const;

/** A lookup's entries as a sheet's choices (dictionary values are Chinese in both languages). */
export const choicesOf = (code: string): SheetChoice[] =>
  (LOOKUPS.find((l) => l.code === code)?.values ?? []).map((v, i) => ({ code: i + 1, zh: v, en: v }));

export const GENDERS: SheetChoice[] = [
  { code: 1, zh: '男', en: 'Male' },
  { code: 2, zh: '女', en: 'Female' },
];

/** The teacher sheet (import and export): accounts, depts and posts by name. */
export const TEACHER_COLUMNS = [
  { key: 'teacherNo', zh: '教师编号', en: 'Teacher number', required: true, width: 14 },
  { key: 'name', zh: '姓名', en: 'Name', required: true, width: 12 },
  { key: 'account', zh: '账号', en: 'Account', width: 14 },
  { key: 'gender', zh: '性别', en: 'Gender', width: 8 },
  { key: 'birthDate', zh: '出生日期', en: 'Birth date', width: 12 },
  { key: 'ethnicity', zh: '民族', en: 'Ethnic group', width: 10 },
  { key: 'staffing', zh: '编制', en: 'Staffing', width: 10 },
  { key: 'politicalStatus', zh: '政治面貌', en: 'Political status', width: 12 },
  { key: 'education', zh: '学历', en: 'Education', width: 10 },
  { key: 'major', zh: '专业', en: 'Major', width: 14 },
  { key: 'graduateSchool', zh: '毕业院校', en: 'Graduate school', width: 18 },
  { key: 'teacherCertificate', zh: '教师资格证', en: 'Teacher certificate', width: 10 },
  { key: 'socialWorkQualification', zh: '社工资格', en: 'Social-work qualification', width: 12 },
  { key: 'mandarinLevel', zh: '普通话等级', en: 'Mandarin level', width: 12 },
  { key: 'professionalTitle', zh: '职称', en: 'Professional title', width: 12 },
  { key: 'hireDate', zh: '入职日期', en: 'Hire date', width: 12 },
  { key: 'phone', zh: '手机号码', en: 'Phone', width: 14 },
  { key: 'dept', zh: '部门', en: 'Department', width: 14 },
  { key: 'post', zh: '岗位', en: 'Post', width: 12 },
] as const satisfies readonly SheetColumn[];
export type TeacherColumn = (typeof TEACHER_COLUMNS)[number]['key'];
