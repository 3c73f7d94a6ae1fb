import { Badge, Grid, Group, Progress, SimpleGrid, Skeleton, Stack, Table, Text, ThemeIcon } from '@mantine/core';
import { IconBug, IconClock, IconKey, IconLayoutList, IconListCheck } from '@tabler/icons-react';
import { type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import { website } from '../../../config/website';
import { useStore } from '../../../lib/createStore';
import { formatDate } from '../../../lib/date';
import { errorLogStore } from '../../../lib/errorLog';
import { permissionStore } from '../../../permissions/permissions';
import { readExpiresIn, readTokenTime, rolesOf, sessionStore } from '../../auth';
import { refreshThreshold } from '../../auth';
import { leafEntries } from '../../layout';
import { menuStore } from '../../layout';
import { WeekDashboard } from '../../week';
import { tabsStore } from '../../layout';

function Stat({ icon, label, value, color }: { icon: ReactNode; label: string; value: ReactNode; color: string }) {
  return (
    <BasicContainer>
      <Group wrap="nowrap">
        <ThemeIcon size={48} radius="md" variant="light" color={color}>
          {icon}
        </ThemeIcon>
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {label}
          </Text>
          <Text size="xl" fw={700}>
            {value}
          </Text>
        </div>
      </Group>
    </BasicContainer>
  );
}

/**
 * `/wel/dashboard` (hidden from the menu): the account at a glance — what it may open,
 * its session, the client's health, and the weekly teaching counts.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const user = useStore(sessionStore, (s) => s.user);
  const all = useStore(menuStore, (s) => s.all);
  const buttons = useStore(permissionStore, (s) => s.buttons);
  const tabs = useStore(tabsStore, (s) => s.tabs);
  const errors = useStore(errorLogStore, (log) => log.length);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);

  const screens = useMemo(() => leafEntries(all).length, [all]);
  const issued = readTokenTime();
  const expiresIn = readExpiresIn() ?? 0;
  const threshold = refreshThreshold(website.tokenTime, expiresIn);
  const age = issued ? Math.max(0, Math.floor((now - issued) / 1000)) : 0;
  const untilRefresh = Math.max(0, threshold - age);

  return (
    <Stack gap="md" data-testid="dashboard-page">
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
        <Stat icon={<IconLayoutList size={24} />} color="brand" label={t('home.dashboard.screens')} value={screens} />
        <Stat
          icon={<IconListCheck size={24} />}
          color="leaf"
          label={t('home.dashboard.permissions')}
          value={Object.keys(buttons).length}
        />
        <Stat icon={<IconClock size={24} />} color="orange" label={t('home.dashboard.tabs')} value={tabs.length} />
        <Stat icon={<IconBug size={24} />} color="red" label={t('home.dashboard.errors')} value={errors} />
      </SimpleGrid>

      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <BasicContainer title={t('home.dashboard.account.title')}>
            <Table verticalSpacing="xs">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th w={140}>{t('home.dashboard.account.account')}</Table.Th>
                  <Table.Td>{user?.account}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t('home.dashboard.account.tenant')}</Table.Th>
                  <Table.Td>{user?.tenantId}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t('home.dashboard.account.roles')}</Table.Th>
                  <Table.Td>
                    <Group gap={4}>
                      {rolesOf(user).map((role) => (
                        <Badge key={role} variant="light" tt="none">
                          {role}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t('home.dashboard.account.signedIn')}</Table.Th>
                  <Table.Td>{issued ? formatDate(issued) : '—'}</Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </BasicContainer>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <BasicContainer title={t('home.dashboard.session.title')}>
            <Stack gap="xs">
              <Group justify="space-between">
                <Group gap={6}>
                  <IconKey size={16} />
                  <Text size="sm">{t('home.dashboard.session.refreshIn')}</Text>
                </Group>
                <Text size="sm" fw={600} data-testid="refresh-countdown">
                  {t('home.dashboard.session.seconds', { count: untilRefresh })}
                </Text>
              </Group>
              <Progress value={threshold > 0 ? Math.min(100, (age / threshold) * 100) : 0} size="lg" radius="xl" />
              <Text size="xs" c="dimmed">
                {t('home.dashboard.session.explain', { seconds: threshold })}
              </Text>
            </Stack>
          </BasicContainer>
        </Grid.Col>
      </Grid>

      {leafEntries(all).some((e) => e.code.startsWith('week_')) && (
        <Suspense fallback={<Skeleton height={260} radius="md" />}>
          <WeekDashboard />
        </Suspense>
      )}
    </Stack>
  );
}
