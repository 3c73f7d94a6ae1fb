import { Accordion, Badge, Grid, Group, Kbd, List, Stack, Text, ThemeIcon, Timeline, Title } from '@mantine/core';
import { IconAward, IconChecklist, IconCircleCheck, IconClipboardCheck, IconEdit, IconSend } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import { ScreenSketch, type SketchFocus } from '../components/ScreenSketch/ScreenSketch';
import classes from './TutorialPage.module.css';

/** The guide's sections, in reading order: [anchor, picture]. */
const SECTIONS: Array<[string, SketchFocus]> = [
  ['signin', 'login'],
  ['navigate', 'sidebar'],
  ['tabs', 'tabs'],
  ['search', 'search'],
  ['appearance', 'theme'],
  ['safety', 'lock'],
];

const FLOW = [
  { key: 'draft', icon: IconEdit },
  { key: 'submit', icon: IconSend },
  { key: 'review', icon: IconClipboardCheck },
  { key: 'approved', icon: IconCircleCheck },
  { key: 'excellent', icon: IconAward },
] as const;

const FAQ = ['password', 'tenant', 'menu', 'loggedOut', 'errors'] as const;

/** `/tutorial/tutorial`: an illustrated guide to the platform (opened by the top bar's question mark). */
export function TutorialPage() {
  const { t } = useTranslation();
  const { hash } = useLocation();

  useEffect(() => {
    if (hash) document.getElementById(`tutorial-${hash.slice(1)}`)?.scrollIntoView({ behavior: 'smooth' });
  }, [hash]);

  return (
    <Stack gap="md" data-testid="tutorial-page">
      <div className={classes.hero}>
        <Badge variant="white" size="lg">
          {t('tutorial.badge')}
        </Badge>
        <Title order={1} className={classes.heroTitle}>
          {t('tutorial.title')}
        </Title>
        <Text className={classes.heroText}>{t('tutorial.intro')}</Text>
        <Group gap="xs" mt="sm" className={classes.toc}>
          {SECTIONS.map(([key], i) => (
            <a key={key} href={`#${key}`} className={classes.tocLink}>
              {i + 1}. {t(`tutorial.sections.${key}.title` as never)}
            </a>
          ))}
          <a href="#flow" className={classes.tocLink}>
            {SECTIONS.length + 1}. {t('tutorial.flow.title')}
          </a>
        </Group>
      </div>

      {SECTIONS.map(([key, focus], i) => (
        <BasicContainer key={key}>
          <Grid gap="xl" align="center" id={`tutorial-${key}`} className={classes.section}>
            <Grid.Col span={{ base: 12, md: 5 }} order={{ base: 1, md: i % 2 === 0 ? 1 : 2 }}>
              <div className={classes.sketch}>
                <ScreenSketch focus={focus} />
              </div>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 7 }} order={{ base: 2, md: i % 2 === 0 ? 2 : 1 }}>
              <Group gap="sm" mb="xs">
                <ThemeIcon radius="xl" size={32}>
                  {i + 1}
                </ThemeIcon>
                <Title order={2} size="h3">
                  {t(`tutorial.sections.${key}.title` as never)}
                </Title>
              </Group>
              <Text c="dimmed" mb="sm">
                {t(`tutorial.sections.${key}.text` as never)}
              </Text>
              <List
                spacing={6}
                size="sm"
                icon={<IconChecklist size={16} color="var(--mantine-primary-color-filled)" />}
              >
                {(t(`tutorial.sections.${key}.points` as never, { returnObjects: true }) as unknown as string[]).map(
                  (point) => (
                    <List.Item key={point}>{point}</List.Item>
                  ),
                )}
              </List>
              {key === 'search' && (
                <Text size="sm" mt="sm">
                  {t('tutorial.shortcut')} <Kbd>Ctrl</Kbd> + <Kbd>K</Kbd> / <Kbd>⌘</Kbd> + <Kbd>K</Kbd>
                </Text>
              )}
            </Grid.Col>
          </Grid>
        </BasicContainer>
      ))}

      <BasicContainer title={t('tutorial.flow.title')}>
        <div id="tutorial-flow" className={classes.section}>
          <Text c="dimmed" mb="lg">
            {t('tutorial.flow.text')}
          </Text>
          <Timeline active={FLOW.length} bulletSize={32} lineWidth={2}>
            {FLOW.map(({ key, icon: Icon }) => (
              <Timeline.Item key={key} bullet={<Icon size={16} />} title={t(`tutorial.flow.steps.${key}.title`)}>
                <Text size="sm" c="dimmed">
                  {t(`tutorial.flow.steps.${key}.text`)}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        </div>
      </BasicContainer>

      <BasicContainer title={t('tutorial.faq.title')}>
        <Accordion variant="separated">
          {FAQ.map((key) => (
            <Accordion.Item key={key} value={key}>
              <Accordion.Control>{t(`tutorial.faq.items.${key}.q`)}</Accordion.Control>
              <Accordion.Panel>
                <Text size="sm">{t(`tutorial.faq.items.${key}.a`)}</Text>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      </BasicContainer>
    </Stack>
  );
}
