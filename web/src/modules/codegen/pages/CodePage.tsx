import { Button, Code, Group, Paper, ScrollArea, Select, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconDownload, IconEye } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http, requestBlob, saveFile } from '../../../lib/http';
import { Can } from '../../../permissions/Can';
import { CrudPage } from '../../../kit/crud';
import { codeConfigs } from '../screens/code';

interface Generated {
  files: { path: string; content: string }[];
  edits: { path: string; after: string; insert: string }[];
}
const BASE = '/blade-develop/code';

/** 代码生成 (menu `code`, `/tool/code`): the configurations, and what one generates — previewed, or as a zip. */
export function CodePage() {
  const { t } = useTranslation();
  const [id, setId] = useState<string | null>(null);
  const [preview, setPreview] = useState<Generated | null>(null);
  const configs = useQuery({
    queryKey: ['code-configs'],
    queryFn: () =>
      http.get<{ records: { id: string; codeName: string; tableName: string }[] }>(`${BASE}/list`, { size: 200 }),
  });
  const options = (configs.data?.data.records ?? []).map((c) => ({
    value: c.id,
    label: `${c.codeName} (${c.tableName})`,
  }));
  return (
    <Stack>
      <CrudPage definition={codeConfigs} />
      <Can code="code_gen">
        <Paper withBorder p="sm" data-testid="code-gen">
          <Title order={5} mb="xs">
            {t('codegen.gen.title')}
          </Title>
          <Group align="flex-end">
            <Select
              label={t('codegen.gen.pick')}
              data={options}
              value={id}
              onChange={(v) => {
                setId(v);
                setPreview(null);
              }}
              onDropdownOpen={() => void configs.refetch()}
              w={320}
            />
            <Button
              leftSection={<IconEye size={16} />}
              disabled={!id}
              onClick={async () => id && setPreview((await http.get<Generated>(`${BASE}/preview`, { id })).data)}
            >
              {t('codegen.gen.preview')}
            </Button>
            <Button
              variant="light"
              leftSection={<IconDownload size={16} />}
              disabled={!id}
              onClick={async () =>
                id && saveFile(await requestBlob(`${BASE}/gen-code`, { ids: id, system: 'sprout' }, 'sprout-code.zip'))
              }
            >
              {t('codegen.gen.download')}
            </Button>
          </Group>
          {preview ? (
            <Tabs defaultValue={preview.files[0]?.path} mt="sm">
              <Tabs.List>
                {preview.files.map((f) => (
                  <Tabs.Tab key={f.path} value={f.path}>
                    {f.path.split('/').slice(-2).join('/')}
                  </Tabs.Tab>
                ))}
              </Tabs.List>
              {preview.files.map((f) => (
                <Tabs.Panel key={f.path} value={f.path} pt="xs">
                  <Text size="xs" c="dimmed">
                    {f.path}
                  </Text>
                  <ScrollArea h={360}>
                    <Code block>{f.content}</Code>
                  </ScrollArea>
                </Tabs.Panel>
              ))}
            </Tabs>
          ) : null}
        </Paper>
      </Can>
    </Stack>
  );
}
