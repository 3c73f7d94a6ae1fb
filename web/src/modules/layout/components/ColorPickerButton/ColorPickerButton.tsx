import { Button, ColorPicker, Group, Popover, Stack, Text, TextInput } from '@mantine/core';
import { IconColorPicker } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PRIMARY_COLOR } from '../../../../config/constants';
import { useStore } from '../../../../lib/createStore';
import { isHexColor } from '../../themes/palette';
import { appearanceStore, setColor } from '../../themes/themeStore';
import { HeaderIcon } from '../TopBar/HeaderIcon';

/** Preset colours (Element's predefined swatches, the default first). */
const SWATCHES = [
  '#409EFF',
  '#1890FF',
  '#304156',
  '#212121',
  '#11A983',
  '#13C2C2',
  '#6959CD',
  '#F5222D',
  '#FA8C16',
  '#EB2F96',
];

/** Colour picker (spec §2): the primary colour, default #409EFF, persisted. */
export function ColorPickerButton() {
  const { t } = useTranslation();
  const color = useStore(appearanceStore, (s) => s.color);
  const [draft, setDraft] = useState(color);
  useEffect(() => setDraft(color), [color]);
  const valid = isHexColor(draft);

  return (
    <Popover position="bottom-end" shadow="lg" width={248} withinPortal>
      <Popover.Target>
        <HeaderIcon label={t('layout.color.label')} data-testid="color-picker">
          <IconColorPicker size={20} />
        </HeaderIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <Text size="sm" fw={600}>
            {t('layout.color.label')}
          </Text>
          <ColorPicker
            format="hex"
            value={valid ? draft : color}
            onChange={setDraft}
            onChangeEnd={(value) => setColor(value)}
            swatches={SWATCHES}
            swatchesPerRow={5}
            fullWidth
          />
          <TextInput
            size="xs"
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value.trim())}
            onBlur={() => valid && setColor(draft)}
            error={valid ? undefined : t('layout.color.invalid')}
            aria-label={t('layout.color.hex')}
            data-testid="color-hex"
          />
          <Group justify="space-between">
            <Button size="xs" variant="subtle" onClick={() => setColor(PRIMARY_COLOR)}>
              {t('layout.color.reset')}
            </Button>
            <Button size="xs" disabled={!valid} onClick={() => setColor(draft)} data-testid="color-apply">
              {t('common.apply')}
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
