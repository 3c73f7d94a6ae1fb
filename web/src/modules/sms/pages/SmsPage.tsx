import { Tabs } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../../kit/crud';
import { smsConfigs, smsLog } from '../screens/sms';

/** 短信配置 (menu `sms`, `/resource/sms`): the configurations, and the message log in a second tab. */
export function SmsPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<string | null>('config');
  return (
    <Tabs value={tab} onChange={setTab} keepMounted={false} data-testid="sms-tabs">
      <Tabs.List>
        <Tabs.Tab value="config" data-testid="sms-tab-config">
          {t('sms.tabs.config')}
        </Tabs.Tab>
        <Tabs.Tab value="log" data-testid="sms-tab-log">
          {t('sms.tabs.log')}
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="config" pt="xs">
        <CrudPage definition={smsConfigs} />
      </Tabs.Panel>
      <Tabs.Panel value="log" pt="xs">
        <CrudPage definition={smsLog} />
      </Tabs.Panel>
    </Tabs>
  );
}
