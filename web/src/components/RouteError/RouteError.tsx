import { Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconHome, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useRouteError } from 'react-router-dom';
import { isChunkLoadError } from '../../lib/lazyPage';
import { SproutMark } from '../SproutMark/SproutMark';
import classes from './RouteError.module.css';

interface RouteErrorProps {
  /** Inside the main layout: fill the content area, not the window. */
  embedded?: boolean;
}

/**
 * Route-level error boundary: a page crashed, or its script did not arrive within the
 * chunk time-out (spec §8). The error itself is logged by the root's error hooks.
 */
export function RouteError({ embedded = false }: RouteErrorProps) {
  const { t } = useTranslation();
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  const detail = error instanceof Error ? error.message : '';

  return (
    <main className={embedded ? classes.embedded : classes.root} data-testid="route-error">
      <Stack align="center" gap="md" maw={460}>
        <SproutMark size={56} />
        <Title order={2} ta="center" size="h3">
          {chunk ? t('errors.chunkTitle') : t('errors.pageCrashedTitle')}
        </Title>
        <Text c="dimmed" ta="center">
          {chunk ? t('errors.chunkText') : t('errors.pageCrashedText')}
        </Text>
        {detail && (
          <Code block maw="100%" data-testid="route-error-detail">
            {detail}
          </Code>
        )}
        <Group>
          <Button leftSection={<IconRefresh size={18} />} onClick={() => window.location.reload()}>
            {t('common.reload')}
          </Button>
          <Button variant="default" component={Link} to="/" leftSection={<IconHome size={18} />}>
            {t('common.backHome')}
          </Button>
        </Group>
      </Stack>
    </main>
  );
}
