import { Button, Divider, Group, Tooltip, UnstyledButton } from '@mantine/core';
import {
  IconBrandDingtalk,
  IconBrandGithub,
  IconBrandGitlab,
  IconBrandGoogle,
  IconBrandQq,
  IconBrandWechat,
  IconBrandWindows,
  IconQrcode,
  IconWorld,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '../../../../config/constants';
import { type ThirdPartySource, website } from '../../../../config/website';
import { languageOfLocale } from '../../../../i18n/languages';
import { setStore } from '../../../../lib/storage';
import classes from './ThirdPartyLogin.module.css';

const ICONS = {
  github: IconBrandGithub,
  gitlab: IconBrandGitlab,
  google: IconBrandGoogle,
  microsoft: IconBrandWindows,
  wechat: IconBrandWechat,
  qq: IconBrandQq,
  dingtalk: IconBrandDingtalk,
} as const;

/** Remembered across the provider's round trip: which tenant the social sign-in is for. */
export const SOCIAL_TENANT_KEY = 'social-tenant';

interface ThirdPartyLoginProps {
  /** The tenant the user typed (or the domain's). */
  tenantId: string;
  /** The buttons: the server's social sources of that tenant (default: those read at start). */
  sources?: ThirdPartySource[];
}

/**
 * Third-party sign-in (spec §1, §2 Login): social providers as round buttons and the
 * workplace-messaging QR scan as a full-width button, as the server has them configured.
 * Each opens the server's render endpoint, which redirects to the provider.
 */
export function ThirdPartyLogin({ tenantId, sources = website.thirdParty }: ThirdPartyLoginProps) {
  const { t, i18n } = useTranslation();
  if (sources.length === 0) return null;
  const language = languageOfLocale(i18n.resolvedLanguage);
  const labelOf = (s: ThirdPartySource) => s.label?.[language] ?? s.label?.zh ?? s.source;

  const go = (source: string) => {
    const tenant = tenantId.trim() || website.defaultTenantId;
    setStore(SOCIAL_TENANT_KEY, tenant, 'session');
    const query = new URLSearchParams({ tenantId: tenant });
    window.location.assign(`${API_BASE}/blade-auth/oauth/render/${encodeURIComponent(source)}?${query}`);
  };

  const social = sources.filter((s) => s.kind === 'social');
  const workplace = sources.filter((s) => s.kind === 'workplace');

  return (
    <section className={classes.root} aria-label={t('auth.thirdParty.title')} data-testid="third-party">
      <Divider label={t('auth.thirdParty.title')} labelPosition="center" />
      {workplace.map((s) => (
        <Button
          key={s.source}
          variant="light"
          fullWidth
          leftSection={<IconQrcode size={18} />}
          onClick={() => go(s.source)}
          data-testid={`third-party-${s.source}`}
        >
          {t('auth.thirdParty.scan', { name: labelOf(s) })}
        </Button>
      ))}
      {social.length > 0 && (
        <Group justify="center" gap="md">
          {social.map((s) => {
            const Icon = ICONS[s.source.toLowerCase() as keyof typeof ICONS] ?? IconWorld;
            const label = t('auth.thirdParty.with', { name: labelOf(s) });
            return (
              <Tooltip key={s.source} label={label}>
                <UnstyledButton
                  className={classes.social}
                  aria-label={label}
                  onClick={() => go(s.source)}
                  data-testid={`third-party-${s.source}`}
                >
                  <Icon size={20} stroke={1.6} />
                </UnstyledButton>
              </Tooltip>
            );
          })}
        </Group>
      )}
    </section>
  );
}
