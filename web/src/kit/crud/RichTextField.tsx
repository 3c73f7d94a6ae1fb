import '@mantine/tiptap/styles.css';
import { Input } from '@mantine/core';
import { RichTextEditor } from '@mantine/tiptap';
import { type Extensions, type JSONContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useRef } from 'react';
import { richDocOf } from './richText';

interface RichTextFieldProps {
  label: string;
  /** The JSON text of a Tiptap document, or plain text (shown as paragraphs). */
  value: string;
  onChange: (value: string) => void;
  readOnly?: boolean;
  error?: string;
  withAsterisk?: boolean;
  /**
   * A live document's binding (Tiptap's Collaboration on the field's Y.XmlFragment): the
   * content is then the document's, not `value`, and the document brings its own undo.
   */
  extensions?: Extensions;
  'data-testid'?: string;
}

/**
 * A form's rich-text field (`type: 'rich'`): Tiptap through @mantine/tiptap, the editor's
 * StarterKit nodes only (what the server's sanitiser keeps). Its value is the document's JSON
 * text, empty when nothing is written; the server sanitises it again on write.
 */
export function RichTextField({
  label,
  value,
  onChange,
  readOnly,
  error,
  withAsterisk,
  extensions,
  ...rest
}: RichTextFieldProps) {
  const written = useRef(value);
  const shared = extensions !== undefined;
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [3] },
        code: false,
        codeBlock: false,
        horizontalRule: false,
        link: { openOnClick: false, autolink: true },
        ...(shared ? { undoRedo: false as const } : {}),
      }),
      ...(extensions ?? []),
    ],
    content: shared ? undefined : (richDocOf(value) as JSONContent),
    editable: !readOnly,
    immediatelyRender: true,
    onUpdate: ({ editor: e }) => {
      const next = e.isEmpty ? '' : JSON.stringify(e.getJSON());
      written.current = next;
      onChange(next);
    },
  });
  // A value from outside (the record loaded into the dialog) replaces the content.
  useEffect(() => {
    if (!editor || shared || value === written.current) return;
    written.current = value;
    editor.commands.setContent(richDocOf(value) as JSONContent, { emitUpdate: false });
  }, [editor, value, shared]);
  useEffect(() => {
    editor?.setEditable(!readOnly);
  }, [editor, readOnly]);

  return (
    <Input.Wrapper label={label} error={error} withAsterisk={withAsterisk} data-testid={rest['data-testid']}>
      <RichTextEditor editor={editor} mih={160}>
        {!readOnly && (
          <RichTextEditor.Toolbar>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Bold />
              <RichTextEditor.Italic />
              <RichTextEditor.Underline />
              <RichTextEditor.Strikethrough />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.H3 />
              <RichTextEditor.BulletList />
              <RichTextEditor.OrderedList />
              <RichTextEditor.Blockquote />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Link />
              <RichTextEditor.Unlink />
            </RichTextEditor.ControlsGroup>
          </RichTextEditor.Toolbar>
        )}
        <RichTextEditor.Content data-testid="rich-text-content" />
      </RichTextEditor>
    </Input.Wrapper>
  );
}
