import { Button } from '@mantine/core';
import { IconHome } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '../../../../app/paths';
import { LanguageSwitch } from '../../../../components/LanguageSwitch/LanguageSwitch';
import { SproutMark } from '../../../../components/SproutMark/SproutMark';
import classes from './ErrorScreen.module.css';

interface ErrorScreenProps {
  code: 403 | 404 | 500;
  illustration: ReactNode;
  title: string;
  text: string;
}

/** The full-window error pages (spec §2: /404, /403, /500). */
export function ErrorScreen({ code, illustration, title, text }: ErrorScreenProps) {
  const { t } = useTranslation();

  return (
    <div className={classes.root} data-testid={`error-${code}`}>
      <header className={classes.topbar}>
        <Link to={PATHS.root} className={classes.brand}>
          <SproutMark size={32} />
          <span>{t('app.title')}</span>
        </Link>
        <LanguageSwitch />
      </header>

      <main className={classes.main}>
        <div className={classes.illustration}>{illustration}</div>
        <h1 className={classes.title}>{title}</h1>
        <p className={classes.text}>{text}</p>
        <Button
          component={Link}
          to={PATHS.root}
          size="md"
          radius="xl"
          leftSection={<IconHome size={18} />}
          data-testid="error-home"
          className={classes.home}
        >
          {t('common.backHome')}
        </Button>
      </main>
    </div>
  );
}
