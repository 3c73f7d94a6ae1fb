import { IconBriefcase, IconCircleDot, IconFolder, IconNotebook, IconUser, IconUserShield } from '@tabler/icons-react';
import { describe, expect, it } from 'vitest';
import { menuIcon } from './icons';

describe('menuIcon', () => {
  it('shows BladeX’s standard iconfont classes as their Tabler icons', () => {
    expect(menuIcon('iconfont iconicon_principal')).toBe(IconUser);
    expect(menuIcon('iconfont iconicon_boss')).toBe(IconUserShield);
    expect(menuIcon(' iconfont  iconicon_message ')).toBe(IconBriefcase);
  });

  it('takes Tabler names with or without the Icon prefix', () => {
    expect(menuIcon('Notebook')).toBe(IconNotebook);
    expect(menuIcon('IconNotebook')).toBe(IconNotebook);
  });

  it('gives unknown names a dot, unknown folders a folder', () => {
    expect(menuIcon('iconfont icon-unknown')).toBe(IconCircleDot);
    expect(menuIcon('iconfont', true)).toBe(IconFolder);
    expect(menuIcon(undefined)).toBe(IconCircleDot);
  });
});
