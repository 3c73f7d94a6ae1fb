import { Button, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';
import { SproutMark } from '../SproutMark/SproutMark';
import classes from './RouteError.module.css';

/** Route-level error boundary: a page crashed or its chunk failed to load. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();

  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <main className={classes.root}>
      <Stack align="center" gap="md" maw={420}>
        <SproutMark size={56} />
        <Title order={2} ta="center" size="h3">
          {t('errors.pageCrashedTitle')}
        </Title>
        <Text c="dimmed" ta="center">
          {t('errors.pageCrashedText')}
        </Text>
        <Button leftSection={<IconRefresh size={18} />} onClick={() => window.location.reload()}>
          {t('common.reload')}
        </Button>
      </Stack>
    </main>
  );
}
