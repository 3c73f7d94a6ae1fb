import { Autocomplete } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useMenuSearch } from '../../hooks/useMenuSearch';
import classes from './TopSearch.module.css';

/** Top-bar search (spec §2): leaf menus by name prefix, case-insensitive; choosing one opens it. */
export function TopSearch() {
  const { t } = useTranslation();
  const { leaves, label, open, query: value, setQuery: setValue, matches } = useMenuSearch();

  return (
    <Autocomplete
      className={classes.root}
      classNames={{ input: classes.input }}
      aria-label={t('layout.search.placeholder')}
      placeholder={t('layout.search.placeholder')}
      leftSection={<IconSearch size={16} stroke={1.7} />}
      radius="xl"
      size="sm"
      value={value}
      onChange={setValue}
      // Our own prefix filter: Mantine's default matches anywhere in the label.
      filter={({ options }) => options}
      data={value.trim() ? [...new Set(matches.map((entry) => label(entry)))] : []}
      renderOption={({ option }) => <span data-testid="top-search-option">{option.value}</span>}
      onOptionSubmit={(chosen) => {
        const entry = leaves.find((e) => label(e) === chosen);
        setValue('');
        if (entry) open(entry);
      }}
      comboboxProps={{ width: 260, position: 'bottom-end' }}
      limit={10}
      data-testid="top-search"
    />
  );
}
