import { useTranslation } from 'react-i18next';
import { ErrorScreen } from '../components/ErrorScreen/ErrorScreen';
import { NotFoundIllustration } from '../components/NotFoundIllustration/NotFoundIllustration';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <ErrorScreen
      code={404}
      illustration={<NotFoundIllustration />}
      title={t('notFound.title')}
      text={t('notFound.text')}
    />
  );
}
