import { ErrorScreen } from '../components/ErrorScreen/ErrorScreen';
import { ForbiddenIllustration } from '../components/ForbiddenIllustration/ForbiddenIllustration';

export function ForbiddenPage() {
  return <ErrorScreen code={403} illustration={<ForbiddenIllustration />} />;
}
