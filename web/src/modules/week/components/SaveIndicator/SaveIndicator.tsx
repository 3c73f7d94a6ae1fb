import type { ComponentProps } from 'react';
import { SaveIndicator as KitSaveIndicator } from '../../../../kit/records/components/SaveIndicator';

/** The record-family kit's save indicator in the week's wording (`week.save.*`). */
export function SaveIndicator(props: Omit<ComponentProps<typeof KitSaveIndicator>, 'texts'>) {
  return <KitSaveIndicator {...props} texts="week.save" />;
}
