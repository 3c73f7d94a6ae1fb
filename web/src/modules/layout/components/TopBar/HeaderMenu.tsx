import { Menu, type MenuDropdownProps, type MenuProps } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { HeaderIcon } from './HeaderIcon';

interface HeaderMenuProps extends Pick<MenuProps, 'shadow' | 'width' | 'withinPortal'> {
  /** The icon's tooltip and name. */
  label: string;
  /** Drawn at the top bar's icon size. */
  icon: Icon;
  'data-testid': string;
  dropdownProps?: MenuDropdownProps;
  /** The menu's content. */
  children: ReactNode;
}

/** A top-bar icon that opens a menu below it (themes, languages). */
export function HeaderMenu({ label, icon: MenuIcon, dropdownProps, children, ...rest }: HeaderMenuProps) {
  const { 'data-testid': testId, ...menu } = rest;
  return (
    <Menu position="bottom-end" {...menu}>
      <Menu.Target>
        <HeaderIcon label={label} data-testid={testId}>
          <MenuIcon size={20} />
        </HeaderIcon>
      </Menu.Target>
      <Menu.Dropdown {...dropdownProps}>{children}</Menu.Dropdown>
    </Menu>
  );
}
