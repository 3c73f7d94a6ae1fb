import { ActionIcon, Avatar, Button, PasswordInput, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowRight, IconLogout } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { logout } from '../../../app/sessionActions';
import { SproutMark } from '../../../components/SproutMark/SproutMark';
import { useStore } from '../../../lib/createStore';
import { formatDate } from '../../../lib/date';
import { unlockScreen } from '../../auth';
import { sessionStore } from '../../auth';
import { useLockPassword } from '../hooks/useLockPassword';
import { tabsStore } from '../tabs/tabsStore';
import { displayName } from '../components/UserMenu/displayName';
import classes from './LockPage.module.css';

/** The lock screen (spec §2, §4): a clock, who is signed in, the lock password to get back. */
export function LockPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const user = useStore(sessionStore, (s) => s.user);
  const [now, setNow] = useState(() => new Date());
  const lock = useLockPassword();

  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 1000);
    return () => window.clearInterval(timer);
  }, []);

  const unlock = () => {
    if (!lock.given()) return;
    if (!unlockScreen(lock.password)) {
      lock.setError(t('layout.lock.wrongPassword'));
      return;
    }
    // Back to the last opened page.
    const last = tabsStore.get().tabs.at(-1);
    navigate(last ? `${last.path}${last.search}` : '/', { replace: true });
  };

  const name = displayName(user);
  const dateText = new Intl.DateTimeFormat(i18n.resolvedLanguage, {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
  }).format(now);

  return (
    <div className={classes.root} data-testid="lock-screen">
      <div className={classes.brand}>
        <SproutMark size={28} />
        <span>{t('app.title')}</span>
      </div>
      <div className={classes.clock}>
        <div className={classes.time}>{formatDate(now, 'HH:mm')}</div>
        <div className={classes.date}>{dateText}</div>
      </div>
      <Stack align="center" gap="md" className={classes.panel}>
        <Avatar src={user?.avatar || null} size={84} radius={84} color="brand" className={classes.avatar}>
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
        <Text fw={600} size="lg" c="white">
          {name}
        </Text>
        <form
          className={classes.form}
          onSubmit={(event) => {
            event.preventDefault();
            unlock();
          }}
        >
          <PasswordInput
            className={classes.input}
            placeholder={t('layout.lock.unlockPlaceholder')}
            aria-label={t('layout.lock.password')}
            radius="xl"
            size="md"
            autoFocus
            {...lock.input}
            data-testid="unlock-password"
            rightSectionWidth={44}
            rightSection={
              <Tooltip label={t('layout.lock.unlock')}>
                <ActionIcon
                  type="submit"
                  radius="xl"
                  size={32}
                  aria-label={t('layout.lock.unlock')}
                  data-testid="unlock-submit"
                >
                  <IconArrowRight size={18} />
                </ActionIcon>
              </Tooltip>
            }
          />
        </form>
        <Button
          variant="subtle"
          color="gray"
          c="rgb(255 255 255 / 80%)"
          leftSection={<IconLogout size={16} />}
          onClick={() => void logout()}
          data-testid="lock-logout"
        >
          {t('layout.lock.logout')}
        </Button>
      </Stack>
    </div>
  );
}
