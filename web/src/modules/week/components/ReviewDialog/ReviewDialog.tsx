import type { ComponentProps } from 'react';
import { ReviewDialog as KitReviewDialog } from '../../../../kit/records/components/ReviewDialog';

/** The record-family kit's review dialog in the week's wording (`week.details.*`). */
export function ReviewDialog(props: Omit<ComponentProps<typeof KitReviewDialog>, 'texts'>) {
  return <KitReviewDialog {...props} texts="week.details" />;
}
