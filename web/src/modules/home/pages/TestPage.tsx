import { Alert, Badge, Button, Group, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { IconBug, IconLock, IconLockOpen } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import { Can } from '../../../permissions/Can';

/**
 * `/test/index`: a workbench for the frame itself — a kept-alive page whose state
 * survives tab switches, permission checks, and deliberate errors for the error log.
 */
export function TestPage() {
  const { t } = useTranslation();
  const [count, setCount] = useState<number | string>(0);
  const [notes, setNotes] = useState('');

  return (
    <Stack gap="md" data-testid="test-page">
      <BasicContainer title={t('home.testPage.keepAlive.title')}>
        <Text size="sm" c="dimmed" mb="sm">
          {t('home.testPage.keepAlive.text')}
        </Text>
        <Group align="flex-end">
          <NumberInput
            label={t('home.testPage.keepAlive.counter')}
            value={count}
            onChange={setCount}
            w={160}
            data-testid="test-counter"
          />
          <Textarea
            label={t('home.testPage.keepAlive.notes')}
            value={notes}
            onChange={(event) => setNotes(event.currentTarget.value)}
            autosize
            minRows={1}
            style={{ flex: 1 }}
            data-testid="test-notes"
          />
        </Group>
      </BasicContainer>

      <BasicContainer title={t('home.testPage.permissions.title')}>
        <Group>
          {['week_add', 'user_add', 'tenant_add'].map((code) => (
            <Can
              key={code}
              code={code}
              fallback={
                <Badge color="gray" variant="light" leftSection={<IconLock size={12} />}>
                  {code}
                </Badge>
              }
            >
              <Badge color="leaf" variant="light" leftSection={<IconLockOpen size={12} />} data-testid={`can-${code}`}>
                {code}
              </Badge>
            </Can>
          ))}
        </Group>
        <Text size="xs" c="dimmed" mt="sm">
          {t('home.testPage.permissions.text')}
        </Text>
      </BasicContainer>

      <BasicContainer title={t('home.testPage.errors.title')}>
        <Alert variant="light" color="orange" mb="sm">
          {t('home.testPage.errors.text')}
        </Alert>
        <Group>
          <Button
            color="red"
            variant="light"
            leftSection={<IconBug size={16} />}
            data-testid="test-throw"
            onClick={() => {
              // Thrown outside React's handlers on purpose: the window error listener logs it.
              setTimeout(() => {
                throw new Error(t('home.testPage.errors.sample'));
              });
            }}
          >
            {t('home.testPage.errors.throw')}
          </Button>
          <Button
            color="red"
            variant="subtle"
            data-testid="test-reject"
            onClick={() => void Promise.reject(new Error(t('home.testPage.errors.sampleRejection')))}
          >
            {t('home.testPage.errors.reject')}
          </Button>
        </Group>
      </BasicContainer>
    </Stack>
  );
}
