import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { BasicContainer } from '../../../../components/BasicContainer/BasicContainer';

/** A page whose record is not there (or not the caller's to see), saying so in `text`. */
export function RecordNotFound({ text, 'data-testid': testId }: { text: string; 'data-testid': string }) {
  return (
    <BasicContainer>
      <Alert color="red" icon={<IconAlertTriangle size={18} />} data-testid={testId}>
        {text}
      </Alert>
    </BasicContainer>
  );
}
