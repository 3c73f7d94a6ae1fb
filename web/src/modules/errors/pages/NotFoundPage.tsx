import { ErrorScreen } from '../components/ErrorScreen/ErrorScreen';
import { NotFoundIllustration } from '../components/NotFoundIllustration/NotFoundIllustration';

export function NotFoundPage() {
  return <ErrorScreen code={404} illustration={<NotFoundIllustration />} />;
}
