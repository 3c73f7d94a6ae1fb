import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import { IconExternalLink, IconWorldOff } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { useStore } from '../../../lib/createStore';
import { useMenuLabel } from '../hooks/useMenuLabel';
import { IFRAME_PREFIX, isExternalUrl } from '../menu/buildMenu';
import { menuStore } from '../menu/menuStore';
import classes from './IframePage.module.css';

/**
 * `/myiframe/:routerPath` (spec §2): an external page from the menu, embedded. The
 * address comes from the user's menu; a `src` query is accepted only as http(s).
 */
export function IframePage() {
  const { t } = useTranslation();
  const { routerPath = '' } = useParams();
  const [search] = useSearchParams();
  const { table, status } = useStore(menuStore);
  const label = useMenuLabel();
  const [loaded, setLoaded] = useState(false);
  const entry = table.get(`${IFRAME_PREFIX}/${encodeURIComponent(routerPath)}`);
  const src = entry?.url ?? (isExternalUrl(search.get('src') ?? '') ? (search.get('src') as string) : null);

  if (!src) {
    if (status === 'loading' || status === 'idle') return <Loader m="xl" />;
    return (
      <Alert color="orange" icon={<IconWorldOff size={18} />} title={t('layout.iframe.missingTitle')}>
        {t('layout.iframe.missing')}
      </Alert>
    );
  }

  // allow-scripts with allow-same-origin lets a framed page of the app's own origin lift its
  // sandbox (and read the session): a same-origin address gets an opaque origin instead.
  const sameOrigin = new URL(src, window.location.href).origin === window.location.origin;
  const sandbox = `allow-scripts${sameOrigin ? '' : ' allow-same-origin'} allow-forms allow-popups allow-downloads`;

  return (
    <div className={classes.root} data-testid="iframe-page">
      <Group justify="space-between" className={classes.bar}>
        <Text size="sm" fw={500} truncate>
          {entry ? label(entry) : src}
        </Text>
        <Button
          size="xs"
          variant="subtle"
          component="a"
          href={src}
          target="_blank"
          rel="noopener noreferrer"
          rightSection={<IconExternalLink size={14} />}
        >
          {t('layout.iframe.openNew')}
        </Button>
      </Group>
      {!loaded && <Loader className={classes.loader} />}
      <iframe
        className={classes.frame}
        src={src}
        title={entry ? label(entry) : src}
        onLoad={() => setLoaded(true)}
        referrerPolicy="no-referrer"
        sandbox={sandbox}
      />
    </div>
  );
}
