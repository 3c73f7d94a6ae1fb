import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconChevronDown, IconLayoutDashboard, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { PATHS } from '../../../../app/paths';
import { logout } from '../../../../app/sessionActions';
import { useStore } from '../../../../lib/createStore';
import { rolesOf, sessionStore } from '../../../auth';
import { displayName } from './displayName';
import classes from './UserMenu.module.css';

/** Avatar and user name with the dropdown of spec §2: dashboard, user info, log out. */
export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useStore(sessionStore, (s) => s.user);
  // The seeded roles by name in the user's language, never their codes (a custom role's code is not shown).
  const roles = rolesOf(user)
    .map((alias) => t(`layout.user.roles.${alias}` as never, { defaultValue: '' }) as string)
    .filter(Boolean)
    .join(t('layout.user.roleSeparator'));
  const name = displayName(user);

  const confirmLogout = () =>
    modals.openConfirmModal({
      title: t('layout.user.logout'),
      children: t('layout.user.logoutConfirm'),
      labels: { confirm: t('common.confirm'), cancel: t('common.cancel') },
      centered: true,
      confirmProps: { 'data-testid': 'logout-confirm' } as never,
      onConfirm: () => void logout(),
    });

  return (
    <Menu position="bottom-end" shadow="md" width={220}>
      <Menu.Target>
        <UnstyledButton className={classes.trigger} data-testid="user-menu" aria-label={t('layout.user.menu')}>
          <Group gap={8} wrap="nowrap">
            <Avatar src={user?.avatar || null} size={32} radius="xl" color="brand" alt={name}>
              {name.slice(0, 1).toUpperCase()}
            </Avatar>
            <Text size="sm" fw={500} className={classes.name} data-testid="user-name">
              {name}
            </Text>
            <IconChevronDown size={14} className={classes.chevron} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <div className={classes.head}>
          <Text size="sm" fw={600} truncate>
            {name}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {t('layout.user.tenant', { tenant: user?.tenantId ?? '' })}
            {roles ? ` · ${roles}` : ''}
          </Text>
        </div>
        <Menu.Divider />
        <Menu.Item leftSection={<IconLayoutDashboard size={16} />} onClick={() => navigate(PATHS.dashboard)}>
          {t('layout.user.dashboard')}
        </Menu.Item>
        <Menu.Item
          leftSection={<IconUserCircle size={16} />}
          onClick={() => navigate(PATHS.info)}
          data-testid="user-info-link"
        >
          {t('layout.user.info')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={confirmLogout} data-testid="logout">
          {t('layout.user.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
