import { Button } from '@mantine/core';
import { IconHome } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '../../../../app/paths';
import { LanguageSwitch } from '../../../../components/LanguageSwitch/LanguageSwitch';
import { SproutMark } from '../../../../components/SproutMark/SproutMark';
import classes from './ErrorScreen.module.css';

/** Each page's texts: `<key>.title` and `<key>.text` of the shared messages. */
const TEXTS = { 403: 'forbidden', 404: 'notFound', 500: 'serverError' } as const;

interface ErrorScreenProps {
  code: keyof typeof TEXTS;
  illustration: ReactNode;
}

/** The full-window error pages (spec §2: /404, /403, /500). */
export function ErrorScreen({ code, illustration }: ErrorScreenProps) {
  const { t } = useTranslation();
  const texts = TEXTS[code];

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
        <h1 className={classes.title}>{t(`${texts}.title`)}</h1>
        <p className={classes.text}>{t(`${texts}.text`)}</p>
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
