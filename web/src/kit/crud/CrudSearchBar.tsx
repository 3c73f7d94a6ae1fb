import { Button, Group } from '@mantine/core';
import { IconRefresh, IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { CrudField } from './CrudField';
import { rangeKeys } from './dates';
import type { CrudColumn, FormValues } from './define';
import { useKitText } from './useKitText';

/** A range search (`search: 'range'`) picks its days in Mantine's range picker (its own chunk). */
const DateRangeField = lazy(() => import('./DateField').then((m) => ({ default: m.DateRangeField })));

interface CrudSearchBarProps {
  columns: readonly CrudColumn[];
  /** Called with the fields' values on search (Enter or the button), with nothing on reset. */
  onSearch: (values: FormValues) => void;
}

/** The search fields of a definition, a search and a reset button. */
export function CrudSearchBar({ columns, onSearch }: CrudSearchBarProps) {
  const { tr, language } = useKitText();
  const [draft, setDraft] = useState<FormValues>({});
  if (columns.length === 0) return null;
  const search = () => onSearch(draft);
  const reset = () => {
    setDraft({});
    onSearch({});
  };
  return (
    <Group gap="sm" align="flex-end" mb="md" data-testid="crud-search">
      {columns.map((column) => {
        if (column.search === 'range') {
          const [gt, lt] = rangeKeys(column.prop);
          return (
            <div key={column.prop} style={{ width: 260 }}>
              <Suspense fallback={null}>
                <DateRangeField
                  language={language}
                  label={tr(column.label)}
                  placeholder={tr('crud.search.rangePlaceholder')}
                  data-testid={`crud-field-${column.prop}`}
                  from={draft[gt]}
                  to={draft[lt]}
                  onChange={(from, to) => setDraft((prev) => ({ ...prev, [gt]: from, [lt]: to }))}
                />
              </Suspense>
            </div>
          );
        }
        return (
          <div key={column.prop} style={{ width: 220 }}>
            <CrudField
              column={column.type === 'textarea' ? { ...column, type: 'text' } : column}
              compact
              value={draft[column.prop]}
              onChange={(value) => setDraft((prev) => ({ ...prev, [column.prop]: value }))}
              onEnter={search}
            />
          </div>
        );
      })}
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
