import { subject } from '@casl/ability';
import { unpackRules } from '@casl/ability/extra';
import { createMongoAbility } from '@casl/ability';
import { describe, expect, it } from 'vitest';
import { apiPatternSource, defineAbilityFor, EMPTY_GRANTS, type Grants } from './ability';
import { UserPermissions } from './cache';
import { fieldFilter } from './fields';

const teacher = { tenantId: '100001', userId: '11', deptId: '21' };
const grants = (g: Partial<Grants>): Grants => ({ ...EMPTY_GRANTS, active: true, deptId: '21', ...g });
const scope = (resource: string, type: number, column: string, field = '*', value: string | null = null) => ({
  resource,
  type,
  column,
  field,
  value,
});

describe('defineAbilityFor', () => {
  it('gives no role nothing', () => {
    const a = defineAbilityFor(teacher, EMPTY_GRANTS);
    expect(a.rules).toEqual([]);
    expect(a.can('read', 'student')).toBe(false);
    expect(a.can('week_add', 'Button')).toBe(false);
  });

  it('gives a disabled or removed user nothing, whatever was granted', () => {
    const a = defineAbilityFor(teacher, { ...grants({ buttons: ['week_add'] }), active: false });
    expect(a.can('week_add', 'Button')).toBe(false);
  });

  it('turns button codes into actions on Button', () => {
    const a = defineAbilityFor(teacher, grants({ buttons: ['week_add', 'observation_excellent'] }));
    expect(a.can('week_add', 'Button')).toBe(true);
    expect(a.can('observation_excellent', 'Button')).toBe(true);
    expect(a.can('week_review', 'Button')).toBe(false);
  });

  it('scopes rows: own, own dept, dept and below, custom, own classes, all — always in the tenant', () => {
    const g = grants({
      deptSubtree: ['21', '22'],
      classIds: ['31'],
      dataScopes: [
        scope('week', 2, 'create_user'),
        scope('dept', 4, 'id'),
        scope('notice', 3, 'dept_id'),
        scope('file', 5, 'dept_id', '*', '40, 41,drop table x'),
        scope('student', 6, 'class_id'),
        scope('project', 1, 'create_user'),
      ],
    });
    const a = defineAbilityFor(teacher, g);
    const row = (type: string, r: Record<string, unknown>) => subject(type, { tenantId: '100001', ...r });
    expect(a.can('read', row('week', { createUser: '11' }))).toBe(true);
    expect(a.can('read', row('week', { createUser: '12' }))).toBe(false);
    expect(a.can('read', subject('week', { tenantId: '100002', createUser: '11' }))).toBe(false);
    expect(a.can('update', row('dept', { id: '22' }))).toBe(true);
    expect(a.can('update', row('dept', { id: '23' }))).toBe(false);
    expect(a.can('read', row('notice', { deptId: '21' }))).toBe(true);
    expect(a.can('read', row('notice', { deptId: '22' }))).toBe(false);
    expect(a.can('read', row('file', { deptId: '41' }))).toBe(true);
    expect(a.can('read', row('file', { deptId: '42' }))).toBe(false);
    expect(a.can('delete', row('student', { classId: '31' }))).toBe(true);
    expect(a.can('delete', row('student', { classId: '32' }))).toBe(false);
    expect(a.can('export', row('project', { createUser: '99' }))).toBe(true);
    expect(a.can('read', row('growth', { createUser: '11' }))).toBe(false);
  });

  it('unions several roles', () => {
    const a = defineAbilityFor(
      teacher,
      grants({ classIds: ['31'], dataScopes: [scope('student', 6, 'class_id'), scope('student', 2, 'create_user')] }),
    );
    expect(a.can('read', subject('student', { tenantId: '100001', classId: '99', createUser: '11' }))).toBe(true);
    expect(a.can('read', subject('student', { tenantId: '100001', classId: '31', createUser: '5' }))).toBe(true);
    expect(a.can('read', subject('student', { tenantId: '100001', classId: '99', createUser: '5' }))).toBe(false);
  });

  it('a user without a dept sees nothing of own-dept scopes', () => {
    const a = defineAbilityFor(
      { ...teacher, deptId: null },
      { ...grants({ dataScopes: [scope('notice', 3, 'dept_id')] }), deptId: null },
    );
    expect(a.can('read', subject('notice', { tenantId: '100001', deptId: null }))).toBe(false);
  });

  it('hides fields a scope does not show, unless another role shows them for that row', () => {
    const limited = defineAbilityFor(
      teacher,
      grants({ classIds: ['31'], dataScopes: [scope('student', 6, 'class_id', '-guardianPhone')] }),
    );
    const record = { id: '1', tenantId: '100001', classId: '31', name: '王子轩', guardianPhone: '13800000000' };
    const hide = fieldFilter(limited, 'read', 'student');
    expect(hide(record)).toEqual({ id: '1', tenantId: '100001', classId: '31', name: '王子轩' });
    const both = defineAbilityFor(
      teacher,
      grants({
        classIds: ['31'],
        dataScopes: [scope('student', 6, 'class_id', '-guardianPhone'), scope('student', 2, 'create_user')],
      }),
    );
    const show = fieldFilter(both, 'read', 'student');
    expect(show({ ...record, createUser: '11' })).toHaveProperty('guardianPhone', '13800000000');
    expect(show({ ...record, createUser: '12' })).not.toHaveProperty('guardianPhone');
    // No field rule → the identity, no per-row work.
    const plain = defineAbilityFor(teacher, grants({ dataScopes: [scope('student', 1, 'create_user')] }));
    const same = { ...record };
    expect(fieldFilter(plain, 'read', 'student')(same)).toBe(same);
  });

  it('packs rules the browser unpacks into the same answers', () => {
    const perms = new UserPermissions(
      teacher,
      grants({
        buttons: ['week_add'],
        classIds: ['31'],
        dataScopes: [scope('student', 6, 'class_id', '-guardianPhone')],
      }),
    );
    const browser = createMongoAbility(unpackRules(perms.packedRules()));
    expect(browser.can('week_add', 'Button')).toBe(true);
    expect(browser.can('week_delete', 'Button')).toBe(false);
    expect(browser.can('read', subject('student', { tenantId: '100001', classId: '31' }), 'guardianPhone')).toBe(false);
    expect(browser.can('read', subject('student', { tenantId: '100001', classId: '31' }), 'name')).toBe(true);
  });
});

describe('API scopes', () => {
  it('compiles METHOD patterns: * one segment, ** the rest', () => {
    const re = (p: string) => new RegExp(`^${apiPatternSource(p)}$`);
    expect(re('GET /api/blade-system/dept/**').test('GET /api/blade-system/dept/lazy-tree')).toBe(true);
    expect(re('GET /api/blade-system/dept/**').test('POST /api/blade-system/dept/submit')).toBe(false);
    expect(re('GET /api/blade-system/dept/**').test('GET /api/blade-system/dept')).toBe(false);
    expect(re('* /api/clazz/classinfo/remove').test('POST /api/clazz/classinfo/remove')).toBe(true);
    expect(re('GET /api/audit/streams/*/events').test('GET /api/audit/streams/:streamId/events')).toBe(true);
    expect(re('GET /api/audit/streams/*/events').test('GET /api/audit/streams/a/b/events')).toBe(false);
    expect(re('GET /api/a.b').test('GET /api/aXb')).toBe(false);
  });

  it('answers a route from one expression per user, and matches the CASL rules', () => {
    const perms = new UserPermissions(
      teacher,
      grants({ apiPatterns: ['GET /api/student/student/**', 'POST /api/student/student/saveStudent'] }),
    );
    expect(perms.allows('GET /api/student/student/listStudents')).toBe(true);
    expect(perms.allows('POST /api/student/student/saveStudent')).toBe(true);
    expect(perms.allows('POST /api/student/student/removeStudent')).toBe(false);
    expect(perms.allows('GET /api/student/student/listStudents')).toBe(true); // memoised
    const api = (route: string) => perms.ability.can('call', subject('Api', { route }));
    expect(api('GET /api/student/student/detail')).toBe(true);
    expect(api('POST /api/student/student/removeStudent')).toBe(false);
    expect(new UserPermissions(teacher, EMPTY_GRANTS).allows('GET /api/student/student/listStudents')).toBe(false);
  });
});
