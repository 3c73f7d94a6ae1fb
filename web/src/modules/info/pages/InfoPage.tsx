import { Tabs } from '@mantine/core';
import { IconKey, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import { PasswordForm } from '../components/PasswordForm/PasswordForm';
import { ProfileForm } from '../components/ProfileForm/ProfileForm';

/** `/info/index` (spec §2 personal info): 个人信息 and 修改密码. */
export function InfoPage() {
  const { t } = useTranslation();
  return (
    <BasicContainer data-testid="info-page">
      <Tabs defaultValue="profile" keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="profile" leftSection={<IconUserCircle size={16} />} data-testid="info-tab-profile">
            {t('info.tabs.profile')}
          </Tabs.Tab>
          <Tabs.Tab value="password" leftSection={<IconKey size={16} />} data-testid="info-tab-password">
            {t('info.tabs.password')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="profile">
          <ProfileForm />
        </Tabs.Panel>
        <Tabs.Panel value="password">
          <PasswordForm />
        </Tabs.Panel>
      </Tabs>
    </BasicContainer>
  );
}
