import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../i18n';
import { LANGUAGES, languageOfLocale } from '../../i18n/languages';
import classes from './LanguageSwitch.module.css';

interface LanguageSwitchProps {
  className?: string;
}

/** 中文 / English toggle. The current language is shown selected and disabled (spec §2). */
export function LanguageSwitch({ className }: LanguageSwitchProps) {
  const { t, i18n } = useTranslation();
  const current = languageOfLocale(i18n.resolvedLanguage ?? i18n.language);

  return (
    <fieldset aria-label={t('language.label')} className={className ? `${classes.root} ${className}` : classes.root}>
      <IconLanguage size={16} stroke={1.75} className={classes.icon} aria-hidden />
      {LANGUAGES.map((language) => {
        const active = language === current;
        return (
          <button
            key={language}
            type="button"
            lang={language === 'zh' ? 'zh-CN' : 'en'}
            className={classes.option}
            data-active={active || undefined}
            data-testid={`lang-${language}`}
            disabled={active}
            aria-pressed={active}
            onClick={() => void changeLanguage(language)}
          >
            {t(`language.${language}`)}
          </button>
        );
      })}
    </fieldset>
  );
}
