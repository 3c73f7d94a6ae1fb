import '@mantine/tiptap/styles.css';
import { Input } from '@mantine/core';
import { RichTextEditor, type RichTextEditorLabels } from '@mantine/tiptap';
import { type JSONContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RichBinding } from '../../model/draft';
import type { RichDoc } from '../../model/types';
import classes from './RichField.module.css';
import { cleanPastedHtml } from './pasteHtml';

interface RichFieldProps {
  /** Where the content lives (a draft's field today, a Y.XmlFragment with live co-editing). */
  binding: RichBinding;
  label?: string;
  error?: string;
  readOnly?: boolean;
  minHeight?: number;
  'data-testid'?: string;
}

/** The toolbar's labels in the interface language. */
function useEditorLabels(): Partial<RichTextEditorLabels> {
  const { i18n } = useTranslation();
  return useMemo(
    () =>
      i18n.resolvedLanguage === 'en'
        ? {}
        : {
            boldControlLabel: '加粗',
            italicControlLabel: '斜体',
            underlineControlLabel: '下划线',
            strikeControlLabel: '删除线',
            clearFormattingControlLabel: '清除格式',
            bulletListControlLabel: '无序列表',
            orderedListControlLabel: '有序列表',
            h3ControlLabel: '小标题',
            blockquoteControlLabel: '引用',
            undoControlLabel: '撤销',
            redoControlLabel: '重做',
            linkControlLabel: '链接',
            unlinkControlLabel: '取消链接',
            linkEditorInputLabel: '链接地址',
            linkEditorInputPlaceholder: 'https://',
            linkEditorSave: '保存',
            linkEditorExternalLink: '在新窗口打开',
            linkEditorInternalLink: '在当前窗口打开',
          },
    [i18n.resolvedLanguage],
  );
}

/**
 * One rich-text field (Tiptap through @mantine/tiptap). Its content is the binding's: the
 * editor starts from `binding.initial`, writes `editor.getJSON()` back through
 * `binding.write`, and shows a replacement (reload, template) without counting it as an
 * edit. A shared-document binding instead brings the Collaboration extension and its own
 * undo history.
 */
export function RichField({ binding, label, error, readOnly = false, minHeight = 96, ...rest }: RichFieldProps) {
  const labels = useEditorLabels();
  const ownHistory = binding.initial === undefined; // a shared document brings its own undo (Y.UndoManager)
  const editor = useEditor(
    {
      extensions: [
        StarterKit.configure({
          heading: { levels: [3] },
          code: false,
          codeBlock: false,
          horizontalRule: false,
          link: { openOnClick: false, autolink: true },
          ...(ownHistory ? { undoRedo: false as const } : {}),
        }),
        ...binding.extensions,
      ],
      content: binding.initial as JSONContent | undefined,
      editorProps: { transformPastedHTML: cleanPastedHtml },
      editable: !readOnly,
      immediatelyRender: true,
      onUpdate: ({ editor: e }) => binding.write?.(e.getJSON() as RichDoc),
    },
    [binding],
  );

  useEffect(() => {
    if (editor && editor.isEditable === readOnly) editor.setEditable(!readOnly, false);
  }, [editor, readOnly]);

  useEffect(() => {
    if (!editor || !binding.onReplace) return;
    return binding.onReplace((doc) => {
      if (!editor.isDestroyed) editor.commands.setContent(doc as JSONContent, { emitUpdate: false });
    });
  }, [editor, binding]);

  return (
    <Input.Wrapper label={label} error={error} className={classes.wrapper} data-testid={rest['data-testid']}>
      <RichTextEditor
        editor={editor}
        labels={labels}
        className={error ? classes.invalid : undefined}
        variant="subtle"
        data-readonly={readOnly || undefined}
      >
        {!readOnly && (
          <RichTextEditor.Toolbar>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Bold />
              <RichTextEditor.Italic />
              <RichTextEditor.Underline />
              <RichTextEditor.Strikethrough />
              <RichTextEditor.ClearFormatting />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.H3 />
              <RichTextEditor.BulletList />
              <RichTextEditor.OrderedList />
              <RichTextEditor.Blockquote />
            </RichTextEditor.ControlsGroup>
            {!ownHistory && (
              <RichTextEditor.ControlsGroup>
                <RichTextEditor.Undo />
                <RichTextEditor.Redo />
              </RichTextEditor.ControlsGroup>
            )}
          </RichTextEditor.Toolbar>
        )}
        <RichTextEditor.Content className={classes.content} style={{ minHeight }} />
      </RichTextEditor>
    </Input.Wrapper>
  );
}
