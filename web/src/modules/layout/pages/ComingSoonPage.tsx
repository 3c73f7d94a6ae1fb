import { Button, Group, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft, IconHome, IconTools } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { PATHS } from '../../../app/paths';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import classes from './ComingSoonPage.module.css';

interface ComingSoonPageProps {
  /** i18n key of the screen's title. */
  titleKey?: string;
  /** The title itself (a menu's label). */
  title?: string;
}

/**
 * A screen the menu or spec names whose feature arrives with a later issue: its title,
 * what will be here, and the way back.
 */
export function ComingSoonPage({ titleKey, title }: ComingSoonPageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const heading = title ?? (titleKey ? (t(titleKey as never) as string) : '');

  return (
    <BasicContainer data-testid="coming-soon">
      <div className={classes.root}>
        <ThemeIcon size={72} radius={36} variant="light">
          <IconTools size={36} stroke={1.4} />
        </ThemeIcon>
        <Title order={2} size="h3" data-testid="page-title">
          {heading}
        </Title>
        <Text c="dimmed" ta="center" maw={480}>
          {t('comingSoon.text')}
        </Text>
        <Group>
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate(-1)}>
            {t('common.back')}
          </Button>
          <Button component={Link} to={PATHS.home} leftSection={<IconHome size={16} />}>
            {t('common.backHome')}
          </Button>
        </Group>
      </div>
    </BasicContainer>
  );
}
