import { IconBriefcase, IconCircleDot, IconFolder, IconNotebook, IconUser, IconUserShield } from '@tabler/icons-react';
import { describe, expect, it } from 'vitest';
import { bladexIconChoices, menuIcon } from './icons';

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

describe('bladexIconChoices', () => {
  it('offers each BladeX class as `iconfont <class>`, shown as the icon the menu shows for it', () => {
    const choices = bladexIconChoices();
    expect(choices.length).toBeGreaterThan(20);
    for (const c of choices) expect(menuIcon(c.value)).toBe(c.icon);
    expect(choices.find((c) => c.name === 'iconicon_principal')).toMatchObject({
      value: 'iconfont iconicon_principal',
      tabler: 'User',
      icon: IconUser,
    });
  });
});
