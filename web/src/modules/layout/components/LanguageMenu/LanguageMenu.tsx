import { Menu } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../../../i18n';
import { LANGUAGES, languageOfLocale } from '../../../../i18n/languages';
import { HeaderMenu } from '../TopBar/HeaderMenu';

/** Language dropdown (spec §2): 中文 / English, the current one disabled. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const current = languageOfLocale(i18n.resolvedLanguage ?? i18n.language);

  return (
    <HeaderMenu label={t('language.label')} icon={IconLanguage} shadow="md" width={150} data-testid="language-menu">
      {LANGUAGES.map((language) => (
        <Menu.Item
          key={language}
          lang={language === 'zh' ? 'zh-CN' : 'en'}
          disabled={language === current}
          rightSection={language === current ? <IconCheck size={14} /> : null}
          onClick={() => void changeLanguage(language)}
          data-testid={`language-${language}`}
        >
          {t(`language.${language}`)}
        </Menu.Item>
      ))}
    </HeaderMenu>
  );
}
