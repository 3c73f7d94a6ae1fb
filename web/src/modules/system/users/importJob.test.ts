import { describe, expect, it } from 'vitest';
import { exportParams, isRunning, isWorkbook, percentOf, stepOf } from './importJob';

describe('user import steps', () => {
  it('turns a running job into a progress bar', () => {
    expect(stepOf({ state: 'validating', total: 5000, done: 1250 }, 'x')).toEqual({
      kind: 'running',
      phase: 'validating',
      total: 5000,
      done: 1250,
      percent: 25,
    });
    expect(stepOf({ state: 'writing', total: 3, done: 3 }, 'x')).toMatchObject({ kind: 'running', percent: 100 });
    expect(isRunning(stepOf({ state: 'writing', total: 3, done: 1 }, 'x'))).toBe(true);
  });

  it('finishes with the count written', () => {
    const step = stepOf({ state: 'done', total: 42, done: 42 }, 'x');
    expect(step).toEqual({ kind: 'done', total: 42 });
    expect(isRunning(step)).toBe(false);
  });

  it('fails with every bad row in the sheet’s order, and the server’s message or the fallback', () => {
    const step = stepOf(
      {
        state: 'failed',
        total: 4,
        done: 0,
        errors: [
          { row: 5, column: 'phone', message: '手机号码格式不正确' },
          { row: 3, column: 'realName', message: '必填' },
          { row: 3, column: 'account', message: '账号已存在' },
        ],
      },
      '导入失败',
    );
    expect(step).toEqual({
      kind: 'failed',
      message: '导入失败',
      errors: [
        { row: 3, column: 'account', message: '账号已存在' },
        { row: 3, column: 'realName', message: '必填' },
        { row: 5, column: 'phone', message: '手机号码格式不正确' },
      ],
    });
    expect(stepOf({ state: 'failed', total: 0, done: 0, message: ' 文件无法读取 ' }, 'x')).toMatchObject({
      message: '文件无法读取',
      errors: [],
    });
    expect(stepOf(null, 'gone')).toEqual({ kind: 'failed', errors: [], message: 'gone' });
  });

  it('bounds the percentage', () => {
    expect(percentOf(0, 0)).toBe(100);
    expect(percentOf(7, 5)).toBe(100);
    expect(percentOf(-1, 5)).toBe(0);
    expect(percentOf(1, 3)).toBe(33);
  });

  it('takes .xlsx only', () => {
    expect(isWorkbook({ name: 'users.XLSX' })).toBe(true);
    expect(isWorkbook({ name: 'users.xls' })).toBe(false);
    expect(isWorkbook(null)).toBe(false);
  });

  it('exports with the list’s search and dept, not its paging', () => {
    expect(exportParams({ current: 3, size: 10, account: 'li', deptId: '12', other: 'x' })).toEqual({
      account: 'li',
      deptId: '12',
    });
  });
});
