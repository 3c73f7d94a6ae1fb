import { IconEye, IconNotebook, IconPlant2 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { SproutMark } from '../../../../components/SproutMark/SproutMark';
import { SproutIllustration } from '../SproutIllustration/SproutIllustration';
import classes from './BrandPanel.module.css';

const FEATURES = [
  { key: 'auth.brand.features.plans', Icon: IconNotebook },
  { key: 'auth.brand.features.observations', Icon: IconEye },
  { key: 'auth.brand.features.growth', Icon: IconPlant2 },
] as const;

interface BrandPanelProps {
  /** The tenant's login background (`getBackgroundUrl`), drawn behind the brand when set. */
  backgroundUrl?: string;
}

/** Left half of the login page; a compact header above the form on small screens. */
export function BrandPanel({ backgroundUrl }: BrandPanelProps) {
  const { t } = useTranslation();
  const safeUrl = backgroundUrl && /^(https?:\/\/|\/)[^\s"'()]+$/.test(backgroundUrl) ? backgroundUrl : '';

  return (
    <section
      className={classes.root}
      aria-labelledby="brand-title"
      data-with-background={safeUrl ? true : undefined}
      style={safeUrl ? { backgroundImage: `url("${safeUrl}")` } : undefined}
    >
      <span className={classes.blobA} aria-hidden />
      <span className={classes.blobB} aria-hidden />

      <div className={classes.logo}>
        <SproutMark size={36} />
        <span className={classes.shortName}>{t('app.shortName')}</span>
      </div>

      <div className={classes.hero}>
        <SproutIllustration className={classes.illustration} />
        <h1 id="brand-title" className={classes.title}>
          {t('app.title')}
        </h1>
        <p className={classes.tagline}>{t('auth.brand.tagline')}</p>
        <ul className={classes.features}>
          {FEATURES.map(({ key, Icon }) => (
            <li key={key} className={classes.feature}>
              <Icon size={16} stroke={1.8} aria-hidden />
              <span>{t(key)}</span>
            </li>
          ))}
        </ul>
      </div>

      <p className={classes.footer}>{t('app.copyright')}</p>
    </section>
  );
}
