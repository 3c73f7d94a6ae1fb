import { describe, expect, it } from 'vitest';
import { cellText, readUserSheet, sexCode, sexName, userWorkbook } from './user-sheet';

describe('the user sheet', () => {
  it('reads cells as text: dates, links, rich text, formulas, numbers', () => {
    expect(cellText(new Date(Date.UTC(2020, 8, 1)))).toBe('2020-09-01');
    expect(cellText({ text: 'a@b.cn', hyperlink: 'mailto:a@b.cn' })).toBe('a@b.cn');
    expect(cellText({ richText: [{ text: '张' }, { text: '三 ' }] })).toBe('张三');
    expect(cellText({ formula: '1+1', result: 2 } as never)).toBe('2');
    expect(cellText(13800000000)).toBe('13800000000');
    expect(cellText(null)).toBe('');
  });

  it('knows the sexes in both languages', () => {
    expect([sexCode('男'), sexCode('female'), sexCode('Unknown'), sexCode('中')]).toEqual([1, 2, 3, undefined]);
    expect([sexName(1, 'zh'), sexName(2, 'en'), sexName(null, 'zh')]).toEqual(['男', 'Female', '']);
  });

  it('reads back what it writes, in either language', async () => {
    const user = {
      account: 'a1',
      realName: '甲',
      name: '',
      phone: '13800000000',
      email: '',
      sex: 'Male',
      birthday: '2020-09-01',
      roles: 'r1,r2',
      dept: 'd',
      post: '',
    };
    const file = await userWorkbook('en', [user], false);
    const read = await readUserSheet(file, 'zh');
    expect(read.rows).toEqual([
      {
        row: 2,
        cells: {
          account: 'a1',
          realName: '甲',
          phone: '13800000000',
          sex: 'Male',
          birthday: '2020-09-01',
          roles: 'r1,r2',
          dept: 'd',
        },
      },
    ]);
    expect(read.columns.size).toBe(10);
  });

  it('refuses what is no xlsx and a sheet without data', async () => {
    await expect(readUserSheet(Buffer.from('not a zip'), 'zh')).rejects.toMatchObject({ messageKey: 'userIo.notXlsx' });
    await expect(readUserSheet(Buffer.from('PK\x03\x04broken'), 'zh')).rejects.toMatchObject({
      messageKey: 'userIo.notXlsx',
    });
    await expect(readUserSheet(await userWorkbook('zh', [], true), 'zh')).rejects.toMatchObject({
      messageKey: 'userIo.empty',
    });
  });
});
