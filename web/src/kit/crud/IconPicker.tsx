import {
  ActionIcon,
  CloseButton,
  Popover,
  ScrollArea,
  SimpleGrid,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import type { CrudColumn } from './define';
import { filterIcons, type IconChoice, type IconComponent, iconComponent } from './fields';
import { useKitText } from './useKitText';

interface IconPickerProps {
  icons: readonly IconChoice[];
  /** The icon the value shows (a choice's, or one the column knows otherwise). */
  shows?: IconComponent;
  value: string;
  onChange: (value: string) => void;
  label: string;
  name: string;
  error?: string;
  readOnly?: boolean;
  withAsterisk?: boolean;
  placeholder?: string;
  onBlur?: () => void;
  'data-testid'?: string;
}

/**
 * An `icon` field: the chosen icon and its stored value; clicking opens a searchable grid of
 * the column's icons, choosing one stores its value.
 */
export function IconPicker({ icons, shows: Chosen, value, onChange, readOnly, onBlur, ...input }: IconPickerProps) {
  const { tr } = useKitText();
  const [opened, setOpened] = useState(false);
  const [search, setSearch] = useState('');
  const shown = filterIcons(icons, search);
  const close = () => {
    setOpened(false);
    setSearch('');
    onBlur?.();
  };
  return (
    <Popover
      opened={opened}
      onChange={(o) => (o ? setOpened(true) : close())}
      width={420}
      position="bottom-start"
      shadow="md"
      withinPortal
      trapFocus
    >
      <Popover.Target>
        <TextInput
          {...input}
          readOnly
          variant={readOnly ? 'filled' : 'default'}
          value={value}
          placeholder={readOnly ? undefined : input.placeholder}
          leftSection={Chosen ? <Chosen size={18} /> : undefined}
          rightSection={
            !readOnly && value ? (
              <CloseButton size="sm" aria-label={tr('crud.icon.clear')} onClick={() => onChange('')} />
            ) : undefined
          }
          style={{ cursor: readOnly ? undefined : 'pointer' }}
          onClick={() => !readOnly && setOpened((o) => !o)}
        />
      </Popover.Target>
      <Popover.Dropdown data-testid="crud-icon-picker">
        <TextInput
          size="xs"
          mb="xs"
          leftSection={<IconSearch size={14} />}
          placeholder={tr('crud.icon.search')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          data-testid="crud-icon-search"
          data-autofocus
        />
        <ScrollArea.Autosize mah={260} type="auto">
          {shown.length === 0 ? (
            <Text size="sm" c="dimmed" ta="center" py="md">
              {tr('crud.icon.none')}
            </Text>
          ) : (
            <SimpleGrid cols={6} spacing={6} verticalSpacing={6}>
              {shown.map((choice) => (
                <IconTile
                  key={choice.value}
                  choice={choice}
                  active={choice.value === value}
                  onPick={() => {
                    onChange(choice.value);
                    close();
                  }}
                />
              ))}
            </SimpleGrid>
          )}
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}

function IconTile({ choice, active, onPick }: { choice: IconChoice; active: boolean; onPick: () => void }) {
  const Icon = choice.icon;
  return (
    <Tooltip label={choice.name} withArrow openDelay={200}>
      <UnstyledButton
        onClick={onPick}
        aria-label={choice.name}
        data-testid={`crud-icon-${choice.name}`}
        data-active={active || undefined}
        style={{
          display: 'flex',
          justifyContent: 'center',
          padding: 8,
          borderRadius: 6,
          border: `1px solid ${active ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)'}`,
          background: active ? 'var(--mantine-primary-color-light)' : undefined,
        }}
      >
        <Icon size={22} stroke={1.6} />
      </UnstyledButton>
    </Tooltip>
  );
}

/** An `icon` field's value in a table: its icon (the value in a tooltip), else the value. */
export function IconCell({ column, value }: { column: CrudColumn; value: unknown }) {
  const Icon = iconComponent(column, value);
  if (!Icon) return <>{String(value ?? '')}</>;
  return (
    <Tooltip label={String(value)} withArrow openDelay={300}>
      <ActionIcon component="span" variant="transparent" color="gray" aria-label={String(value)}>
        <Icon size={18} />
      </ActionIcon>
    </Tooltip>
  );
}
