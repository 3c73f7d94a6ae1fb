import { Button, Group } from '@mantine/core';
import { IconRefresh, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { CrudField } from './CrudField';
import type { CrudColumn, FormValues } from './define';
import { useKitText } from './useKitText';

interface CrudSearchBarProps {
  columns: readonly CrudColumn[];
  /** Called with the fields' values on search (Enter or the button), with nothing on reset. */
  onSearch: (values: FormValues) => void;
}

/** The search fields of a definition, a search and a reset button. */
export function CrudSearchBar({ columns, onSearch }: CrudSearchBarProps) {
  const { tr } = useKitText();
  const [draft, setDraft] = useState<FormValues>({});
  if (columns.length === 0) return null;
  const search = () => onSearch(draft);
  const reset = () => {
    setDraft({});
    onSearch({});
  };
  return (
    <Group gap="sm" align="flex-end" mb="md" data-testid="crud-search">
      {columns.map((column) => (
        <div key={column.prop} style={{ width: 220 }}>
          <CrudField
            column={column.type === 'textarea' ? { ...column, type: 'text' } : column}
            compact
            value={draft[column.prop]}
            onChange={(value) => setDraft((prev) => ({ ...prev, [column.prop]: value }))}
            onEnter={search}
          />
        </div>
      ))}
      <Group gap="xs">
        <Button leftSection={<IconSearch size={16} />} onClick={search} data-testid="crud-search-submit">
          {tr('crud.search.submit')}
        </Button>
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} />}
          onClick={reset}
          data-testid="crud-search-reset"
        >
          {tr('crud.search.reset')}
        </Button>
      </Group>
    </Group>
  );
}
