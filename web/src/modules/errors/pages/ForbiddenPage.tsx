import { useTranslation } from 'react-i18next';
import { ErrorScreen } from '../components/ErrorScreen/ErrorScreen';
import { ForbiddenIllustration } from '../components/ForbiddenIllustration/ForbiddenIllustration';

export function ForbiddenPage() {
  const { t } = useTranslation();
  return (
    <ErrorScreen
      code={403}
      illustration={<ForbiddenIllustration />}
      title={t('forbidden.title')}
      text={t('forbidden.text')}
    />
  );
}
