import { describe, expect, it, vi } from 'vitest';
import type { BladeFile } from '../../../lib/upload';
import { type AddFilesDeps, addFiles } from './UploadListField';

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name);
const sent = (id: string): BladeFile => ({ link: '', name: id, originalName: `${id}.pdf`, attachId: id });

function deps(over: Partial<Pick<AddFilesDeps, 'value' | 'max' | 'start'>> = {}) {
  let n = 0;
  return {
    value: ['a'],
    max: 3,
    refuse: (f: File) => (f.name.endsWith('.exe') ? 'refused' : null),
    full: 'full',
    start: vi.fn(async () => sent(`n${++n}`)) as AddFilesDeps['start'],
    problemOf: (e: unknown) => (e instanceof Error ? e.message : null),
    onChange: vi.fn(),
    onUploaded: vi.fn(),
    onProblem: vi.fn(),
    ...over,
  };
}

describe('a form’s upload list (FilesField, PhotoField)', () => {
  it('adds each landed upload at once, skips a refused file and stops when the list is full', async () => {
    const d = deps();
    const ids = await addFiles([file('x.pdf'), file('bad.exe'), file('y.pdf'), file('z.pdf')], d);
    expect(ids).toEqual(['a', 'n1', 'n2']);
    expect(d.onChange.mock.calls).toEqual([[['a', 'n1']], [['a', 'n1', 'n2']]]);
    expect(d.onChange).toHaveBeenCalledTimes(2);
    expect(d.onProblem.mock.calls).toEqual([['refused'], ['full']]);
    expect(d.onUploaded).toHaveBeenCalledWith('n1', sent('n1'), expect.any(File));
  });

  it('keeps what landed when a later upload fails, and says nothing of a cancelled one', async () => {
    const start = vi
      .fn<(f: File) => Promise<BladeFile>>()
      .mockResolvedValueOnce(sent('ok'))
      .mockRejectedValueOnce(new Error('network'))
      .mockRejectedValueOnce('cancelled');
    const d = deps({ value: [], max: 10, start });
    const ids = await addFiles([file('1.pdf'), file('2.pdf'), file('3.pdf')], d);
    expect(ids).toEqual(['ok']);
    expect(d.onChange).toHaveBeenCalledTimes(1);
    expect(d.onProblem.mock.calls).toEqual([['network']]);
  });
});
