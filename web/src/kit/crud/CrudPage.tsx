import 'mantine-datatable/styles.css';
import { Box, Flex, Grid, Stack, Text } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { BasicContainer } from '../../components/BasicContainer/BasicContainer';
import { type CrudExtras, CrudScreen } from './CrudScreen';
import { CrudSideTree } from './CrudSideTree';
import { CrudTree } from './CrudTree';
import { CrudWholeTree } from './CrudWholeTree';
import type { CrudDefinition, CrudRecord } from './define';
import { childDefinition, sideParams } from './relations';
import type { SelectionAction } from './SelectionActions';
import { useKitText } from './useKitText';

/**
 * A console screen from its definition: a paged table (search bar, toolbar, table with paging,
 * sorting and selection, the add/edit/view dialog); a lazy tree when it has `tree` (a whole one
 * with `tree.whole`); a parent
 * table and its chosen row's children when it has `children`. Buttons show through `<Can>`.
 */
export function CrudPage({
  definition: def,
  selectionActions,
  extras,
}: {
  definition: CrudDefinition;
  /** Toolbar buttons on the selected rows, each opening the screen's dialog (flat tables and whole trees). */
  selectionActions?: readonly SelectionAction[];
  /** The page's own toolbar and row buttons (flat tables). */
  extras?: CrudExtras;
}) {
  return (
    <BasicContainer data-testid={def.testId}>
      {def.tree?.whole ? (
        <CrudWholeTree def={def} selectionActions={selectionActions} />
      ) : def.tree ? (
        <CrudTree def={def} />
      ) : def.children ? (
        <ParentAndChildren def={def} />
      ) : def.side ? (
        <WithSideTree def={def} extras={extras} />
      ) : (
        <CrudScreen def={def} selectionActions={selectionActions} extras={extras} />
      )}
    </BasicContainer>
  );
}

/** A tree beside the table (`side`): the chosen node is a parameter of every list call. */
function WithSideTree({ def, extras }: { def: CrudDefinition; extras?: CrudExtras }) {
  const [chosen, setChosen] = useState<string | null>(null);
  const scoped = useMemo(() => ({ ...def, params: { ...def.params, ...sideParams(def.side, chosen) } }), [def, chosen]);
  return (
    <Flex gap="md" align="flex-start" direction={{ base: 'column', md: 'row' }}>
      <Box w={{ base: '100%', md: 230 }} style={{ flexShrink: 0 }}>
        {def.side && <CrudSideTree side={def.side} chosen={chosen} onChoose={setChosen} />}
      </Box>
      <Box style={{ flex: 1, minWidth: 0 }} w={{ base: '100%', md: 'auto' }}>
        <CrudScreen def={scoped} extras={extras} />
      </Box>
    </Flex>
  );
}

/** Spec §2 dictionary tables: the parents, and the chosen parent's children right of them or below. */
function ParentAndChildren({ def }: { def: CrudDefinition }) {
  const { tr } = useKitText();
  const [chosen, setChosen] = useState<CrudRecord | null>(null);
  const rowKey = def.rowKey ?? 'id';
  // The first parent is chosen until the user chooses one; a chosen parent gone from the page is let go.
  const onRecords = useCallback(
    (rows: CrudRecord[]) =>
      setChosen((current) => {
        const still = current && rows.find((r) => String(r[rowKey]) === String(current[rowKey]));
        return still ?? rows[0] ?? null;
      }),
    [rowKey],
  );
  const child = useMemo(() => (chosen ? childDefinition(def, chosen) : null), [def, chosen]);
  const vertical = def.children?.layout === 'vertical';
  const parent = <CrudScreen def={def} chosen={chosen} onChoose={setChosen} onRecords={onRecords} narrow={!vertical} />;
  const children = (
    <div data-testid="crud-children">
      {child ? (
        <CrudScreen key={String(chosen?.[rowKey])} def={child} narrow={!vertical} />
      ) : (
        <Text c="dimmed" ta="center" py="xl">
          {tr('crud.children.choose')}
        </Text>
      )}
    </div>
  );
  if (vertical)
    return (
      <Stack gap="xl" data-layout="vertical">
        <div data-testid="crud-parents">{parent}</div>
        {children}
      </Stack>
    );
  return (
    <Grid gap="xl" data-layout="horizontal">
      <Grid.Col span={{ base: 12, lg: 6 }} data-testid="crud-parents">
        {parent}
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 6 }}>{children}</Grid.Col>
    </Grid>
  );
}
