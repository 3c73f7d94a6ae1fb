import { Indicator } from '@mantine/core';
import { IconBug } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ERROR_BADGE_CAP } from '../../../../config/constants';
import { useStore } from '../../../../lib/createStore';
import { errorLogStore } from '../../../../lib/errorLog';
import { HeaderIcon } from '../TopBar/HeaderIcon';
import { ErrorLogDialog } from './ErrorLogDialog';

/** Spec §8: the local error count, capped at 99 (99+), opening the error log. */
export function badgeLabel(count: number): string {
  return count > ERROR_BADGE_CAP ? `${ERROR_BADGE_CAP}+` : String(count);
}

export function ErrorLogButton() {
  const { t } = useTranslation();
  const count = useStore(errorLogStore, (log) => log.length);
  const [opened, setOpened] = useState(false);

  return (
    <>
      <Indicator
        label={badgeLabel(count)}
        size={16}
        offset={6}
        color="red"
        disabled={count === 0}
        data-testid="error-log-badge"
        styles={{ indicator: { fontSize: 10, padding: '0 4px' } }}
      >
        <HeaderIcon label={t('layout.errorLog.title')} onClick={() => setOpened(true)} data-testid="error-log-open">
          <IconBug size={20} />
        </HeaderIcon>
      </Indicator>
      <ErrorLogDialog opened={opened} onClose={() => setOpened(false)} />
    </>
  );
}
