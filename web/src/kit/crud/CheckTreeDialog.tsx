import { Button, Group, LoadingOverlay, Modal, ScrollArea, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import { CheckTree } from './CheckTree';
import { type CheckMode, type CheckTreeNode, idsToSend, indexTree, initialChecked } from './checkTree';
import { useKitText } from './useKitText';

/** One checkable tree of the dialog: what may be checked, and the ids held now. */
export interface CheckTreeTab {
  key: string;
  /** i18n key of the tab. */
  label: string;
  nodes: CheckTreeNode[];
  held: readonly string[];
  /** `grant` (a role's: the half-checked parents are sent too) or `subtree` (a top menu's: whole subtrees). */
  mode: CheckMode;
}

interface CheckTreeDialogProps {
  opened: boolean;
  /** The dialog's title (already translated). */
  title: string;
  /** The trees, or null while they load. */
  tabs: CheckTreeTab[] | null;
  saving: boolean;
  /** The checked ids of each tab, by its key. */
  onSave: (ids: Record<string, string[]>) => void;
  onClose: () => void;
  testId?: string;
}

/**
 * A dialog of checkable trees, one per tab (a role's menus, data scopes and API scopes; a top
 * menu's menus): each starts with what is held, and saving hands over the checked ids.
 */
export function CheckTreeDialog({ opened, title, tabs, saving, onSave, onClose, testId }: CheckTreeDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={560}
      centered
      closeOnClickOutside={false}
      data-testid={testId}
    >
      <div style={{ position: 'relative', minHeight: 200 }}>
        <LoadingOverlay visible={tabs === null} />
        {tabs && <Trees tabs={tabs} saving={saving} onSave={onSave} onClose={onClose} />}
      </div>
    </Modal>
  );
}

function Trees({
  tabs,
  saving,
  onSave,
  onClose,
}: Pick<CheckTreeDialogProps, 'saving' | 'onSave' | 'onClose'> & { tabs: CheckTreeTab[] }) {
  const { tr } = useKitText();
  const [checked, setChecked] = useState<Record<string, string[]>>(() =>
    Object.fromEntries(tabs.map((t) => [t.key, initialChecked(indexTree(t.nodes), t.held, t.mode)])),
  );
  const save = () =>
    onSave(Object.fromEntries(tabs.map((t) => [t.key, idsToSend(indexTree(t.nodes), checked[t.key] ?? [], t.mode)])));
  const treeOf = (tab: CheckTreeTab) => (
    <ScrollArea.Autosize mah="55vh" type="auto">
      {tab.nodes.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          {tr('crud.table.empty')}
        </Text>
      ) : (
        <CheckTree
          data={tab.nodes}
          checked={checked[tab.key] ?? []}
          onChange={(next) => setChecked((all) => ({ ...all, [tab.key]: next }))}
          mode={tab.mode}
          testId={`check-tree-${tab.key}`}
        />
      )}
    </ScrollArea.Autosize>
  );
  return (
    <>
      {tabs.length === 1 && tabs[0] ? (
        treeOf(tabs[0])
      ) : (
        <Tabs defaultValue={tabs[0]?.key} keepMounted={false}>
          <Tabs.List mb="sm">
            {tabs.map((t) => (
              <Tabs.Tab key={t.key} value={t.key} data-testid={`check-tab-${t.key}`}>
                {tr(t.label)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {tabs.map((t) => (
            <Tabs.Panel key={t.key} value={t.key}>
              {treeOf(t)}
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
      <Group justify="flex-end" mt="xl">
        <Button variant="default" onClick={onClose} data-testid="check-dialog-cancel">
          {tr('crud.dialog.cancel')}
        </Button>
        <Button onClick={save} loading={saving} data-testid="check-dialog-save">
          {tr('crud.dialog.save')}
        </Button>
      </Group>
    </>
  );
}
