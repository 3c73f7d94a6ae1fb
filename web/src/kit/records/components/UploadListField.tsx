import { Anchor, FileButton, Group, Input, Stack, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import type { BladeFile } from '../../../lib/upload';
import { UploadProgress, useUpload } from '../../upload';

/** What adding files to a list of attachment ids needs (the upload kit's calls and the field's rules). */
export interface AddFilesDeps {
  /** The ids the field holds now. */
  value: readonly string[];
  max: number;
  /** Why a file is refused before it is sent (the text to show), or null. */
  refuse: (file: File) => string | null;
  /** The text when the list is full. */
  full: string;
  start: (file: File) => Promise<BladeFile>;
  /** What to tell the user of a failed upload (null: they cancelled it). */
  problemOf: (error: unknown) => string | null;
  /** Each upload as it lands: the new list. */
  onChange: (ids: string[]) => void;
  onUploaded?: (id: string, sent: BladeFile, file: File) => void;
  onProblem: (message: string) => void;
}

/**
 * Sends the chosen files one after another: a refused file is skipped (its reason shown), a full
 * list stops there, each upload that lands is added to the list at once (a later failure keeps it).
 */
export async function addFiles(files: readonly File[], d: AddFilesDeps): Promise<string[]> {
  let ids = [...d.value];
  for (const file of files) {
    if (ids.length >= d.max) {
      d.onProblem(d.full);
      break;
    }
    const refused = d.refuse(file);
    if (refused) {
      d.onProblem(refused);
      continue;
    }
    try {
      const sent = await d.start(file);
      const id = String(sent.attachId);
      d.onUploaded?.(id, sent, file);
      ids = [...ids, id];
      d.onChange(ids);
    } catch (e) {
      const message = d.problemOf(e);
      if (message) d.onProblem(message);
    }
  }
  return ids;
}

/**
 * A form's list of uploads (FilesField, PhotoField): the label and hint, the list the caller
 * draws, the upload kit's progress and cancel while one is sent, else the add button.
 */
export function UploadListField({
  kind,
  label,
  description,
  value,
  onChange,
  max,
  full,
  refuse,
  onUploaded,
  accept,
  addIcon,
  addLabel,
  error,
  testId,
  children,
}: {
  kind: 'file' | 'photo';
  label: string;
  description: string;
  value: string[];
  onChange: (ids: string[]) => void;
  max: number;
  full: string;
  refuse: (file: File) => string | null;
  onUploaded?: AddFilesDeps['onUploaded'];
  accept: string;
  addIcon: ReactNode;
  addLabel: string;
  error?: string;
  testId: string;
  /** The list of what the field holds. */
  children: ReactNode;
}) {
  const upload = useUpload({ kind });
  const [problem, setProblem] = useState<string | null>(null);
  const add = (files: File[]) => {
    setProblem(null);
    return addFiles(files, {
      value,
      max,
      refuse,
      full,
      start: (file) => upload.start(file),
      problemOf: upload.problemOf,
      onChange,
      onUploaded,
      onProblem: setProblem,
    });
  };
  return (
    <Input.Wrapper label={label} error={problem ?? error} description={description} data-testid={testId}>
      <Stack gap="xs" mt={4}>
        {children}
        {upload.progress ? (
          <UploadProgress progress={upload.progress} onCancel={upload.cancel} />
        ) : (
          <FileButton onChange={(files) => void add(files)} accept={accept} multiple>
            {(props) => (
              <Group>
                <Anchor component="button" type="button" {...props} data-testid={`${testId}-add`}>
                  <Group gap={4}>
                    {addIcon}
                    <Text size="sm">{addLabel}</Text>
                  </Group>
                </Anchor>
              </Group>
            )}
          </FileButton>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
