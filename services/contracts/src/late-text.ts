import { z } from 'zod';

/**
 * What an editor typed after her week was submitted (issue 23): never part of the submission,
 * kept for her and offered back (`GET /api/week/week/lateText`).
 */
export const LateFieldSchema = z.object({
  /** `theme`, `days.<i>.<slot>` or a rich field (`weeklyGoals` …). */
  path: z.string(),
  /** The field as it reads with her late typing (plain text for a rich field). */
  text: z.string(),
  /** The characters she added to it after the submit. */
  added: z.string(),
  /** A rich field: offered to copy; a plain field can be put back in place. */
  rich: z.boolean(),
});

export const LateTextSchema = z.object({
  fields: z.array(LateFieldSchema),
  /** Characters added over every field. */
  chars: z.number().int(),
});

export type LateField = z.output<typeof LateFieldSchema>;
export type LateText = z.output<typeof LateTextSchema>;
