import { IconMaximize, IconMinimize } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HeaderIcon } from '../TopBar/HeaderIcon';

/** Full screen on and off (spec §2); hidden where the browser cannot do it. */
export function FullscreenButton() {
  const { t } = useTranslation();
  const [full, setFull] = useState(() => document.fullscreenElement !== null);

  useEffect(() => {
    const onChange = () => setFull(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  if (!document.fullscreenEnabled) return null;

  const toggle = () => {
    const request = full ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    request.catch(() => undefined); // refused (e.g. not from a user gesture): nothing to do
  };

  return (
    <HeaderIcon
      label={full ? t('layout.topBar.exitFullscreen') : t('layout.topBar.fullscreen')}
      onClick={toggle}
      data-testid="fullscreen"
    >
      {full ? <IconMinimize size={20} /> : <IconMaximize size={20} />}
    </HeaderIcon>
  );
}
