import { useTranslation } from 'react-i18next';
import { ErrorScreen } from '../components/ErrorScreen/ErrorScreen';
import { ServerErrorIllustration } from '../components/ServerErrorIllustration/ServerErrorIllustration';

export function ServerErrorPage() {
  const { t } = useTranslation();
  return (
    <ErrorScreen
      code={500}
      illustration={<ServerErrorIllustration />}
      title={t('serverError.title')}
      text={t('serverError.text')}
    />
  );
}
