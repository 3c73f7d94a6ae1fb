import { Badge, Button, Grid, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBook, IconBuildingCommunity, IconPalette, IconUserCircle } from '@tabler/icons-react';
import { Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '../../../app/paths';
import { BasicBlock } from '../../../components/BasicBlock/BasicBlock';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import { useStore } from '../../../lib/createStore';
import { SproutIllustration } from '../../auth';
import { rolesOf, sessionStore } from '../../auth';
import { displayName } from '../../layout';
import { useMenuLabel } from '../../layout';
import { leafEntries } from '../../layout';
import { menuIcon } from '../../layout';
import { menuStore } from '../../layout';
import { NoticeArea } from '../../notice';
import { WeekDashboard } from '../../week';
import { GuideDashboard } from '../../guide';
import { greetingKey } from '../greeting';
import classes from './WelcomePage.module.css';

const TILE_COLOURS = [
  'linear-gradient(135deg, #5aabff 0%, #2f86e6 100%)',
  'linear-gradient(135deg, #7ac95a 0%, #4e9e33 100%)',
  'linear-gradient(135deg, #ffb347 0%, #f0892e 100%)',
  'linear-gradient(135deg, #9c8cff 0%, #6b5ce6 100%)',
  'linear-gradient(135deg, #4fd1c5 0%, #1f9f95 100%)',
  'linear-gradient(135deg, #ff8a8a 0%, #e55d6b 100%)',
];

/**
 * `/wel/index`, the home tab: a welcome with the user's name and tenant, the teaching
 * figures (weekly counts, pending reviews, the viewer's to-dos), quick entries from their
 * menu, notices and first steps.
 */
export function WelcomePage() {
  const { t, i18n } = useTranslation();
  const user = useStore(sessionStore, (s) => s.user);
  const all = useStore(menuStore, (s) => s.all);
  const label = useMenuLabel();
  const now = new Date();
  const shortcuts = useMemo(
    () =>
      leafEntries(all)
        .filter((e) => e.path !== PATHS.home && !e.newWindow)
        .slice(0, 6),
    [all],
  );
  const roles = rolesOf(user);
  // The teaching figures are for those who work with lesson plans (a caregiver has none).
  const hasLessonPlans = useMemo(() => leafEntries(all).some((e) => e.code.startsWith('week_')), [all]);
  const today = new Intl.DateTimeFormat(i18n.resolvedLanguage, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    weekday: 'long',
  }).format(now);

  return (
    <Stack gap="md" data-testid="welcome-page">
      <div className={classes.hero}>
        <div className={classes.heroText}>
          <Text size="sm" className={classes.date}>
            {today}
          </Text>
          <Title order={1} className={classes.greeting} data-testid="welcome-greeting">
            {t(greetingKey(now.getHours()), { name: displayName(user) })}
          </Title>
          <Text className={classes.tagline}>{t('home.tagline')}</Text>
          <Group gap="xs" mt="md">
            <Badge
              size="lg"
              variant="white"
              color="brand"
              tt="none"
              leftSection={<IconBuildingCommunity size={14} />}
              data-testid="welcome-tenant"
            >
              {t('home.tenant', { tenant: user?.tenantId ?? '' })}
            </Badge>
            {roles.map((role) => (
              <Badge key={role} size="lg" variant="white" color="leaf" tt="none">
                {role}
              </Badge>
            ))}
          </Group>
        </div>
        <SproutIllustration className={classes.heroArt} />
      </div>

      {hasLessonPlans && (
        <Suspense fallback={null}>
          <WeekDashboard />
        </Suspense>
      )}
      <Suspense fallback={null}>{hasLessonPlans && <GuideDashboard />}</Suspense>

      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <BasicContainer title={t('home.shortcuts.title')}>
            {shortcuts.length === 0 ? (
              <Text c="dimmed" size="sm">
                {t('home.shortcuts.empty')}
              </Text>
            ) : (
              <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
                {shortcuts.map((entry, i) => {
                  const parent = all.find((root) => entry.parents[0] === root.path);
                  return (
                    <BasicBlock
                      key={entry.id}
                      to={entry.path}
                      text={label(entry)}
                      dept={parent ? label(parent) : undefined}
                      icon={menuIcon(entry.icon)}
                      background={TILE_COLOURS[i % TILE_COLOURS.length]}
                      data-testid="welcome-shortcut"
                    />
                  );
                })}
              </SimpleGrid>
            )}
          </BasicContainer>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <BasicContainer title={t('home.notices.title')}>
            <NoticeArea />
          </BasicContainer>
        </Grid.Col>
      </Grid>

      <BasicContainer title={t('home.start.title')}>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          {[
            { icon: IconBook, key: 'tutorial', to: PATHS.tutorial },
            { icon: IconUserCircle, key: 'info', to: PATHS.info },
            { icon: IconPalette, key: 'look', to: `${PATHS.tutorial}#appearance` },
          ].map(({ icon: Icon, key, to }) => (
            <Group key={key} wrap="nowrap" align="flex-start" className={classes.step}>
              <ThemeIcon size={40} radius="md" variant="light">
                <Icon size={22} stroke={1.6} />
              </ThemeIcon>
              <div>
                <Text fw={600} size="sm">
                  {t(`home.start.${key}.title` as never)}
                </Text>
                <Text size="xs" c="dimmed" mb={6}>
                  {t(`home.start.${key}.text` as never)}
                </Text>
                <Button component={Link} to={to} size="compact-xs" variant="subtle" px={0}>
                  {t(`home.start.${key}.action` as never)}
                </Button>
              </div>
            </Group>
          ))}
        </SimpleGrid>
      </BasicContainer>
    </Stack>
  );
}
