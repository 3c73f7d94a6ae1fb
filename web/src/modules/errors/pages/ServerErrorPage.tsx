import { ErrorScreen } from '../components/ErrorScreen/ErrorScreen';
import { ServerErrorIllustration } from '../components/ServerErrorIllustration/ServerErrorIllustration';

export function ServerErrorPage() {
  return <ErrorScreen code={500} illustration={<ServerErrorIllustration />} />;
}
