import type { FamilyPath } from '../records';

/**
 * The paths every teaching family of issue 19 adds to the spec's (the web kit's operations):
 * save without submitting, review, the timeline, and the mine / review-queue / approved lists.
 * `what` names the record in the summaries.
 */
export function kitPaths(what: string, lists: { mine?: string; trial?: string; approved?: string } = {}): FamilyPath[] {
  return [
    { method: 'POST', url: 'update', op: 'update', summary: `Create (no id) or save a ${what}` },
    { method: 'POST', url: 'review', op: 'review', summary: 'Approve, or return with a comment' },
    { method: 'GET', url: 'history', op: 'history', summary: `The timeline of one ${what}` },
    { method: 'POST', url: lists.mine ?? 'mineList', op: 'mine', summary: `My ${what}s (author or team)` },
    { method: 'POST', url: lists.trial ?? 'trialList', op: 'trial', summary: 'The review queue' },
    { method: 'POST', url: lists.approved ?? 'successList', op: 'approved', summary: `Approved ${what}s in scope` },
    { method: 'GET', url: 'exportForId', op: 'exportOne', summary: `One ${what} as a Word file (id)` },
    {
      method: 'GET',
      url: 'exportAllForId',
      op: 'exportMany',
      summary: `Starts a zip of Word files of the given ${what}s (ids) → {jobId, total}; poll exportProgress`,
    },
  ];
}

/** The spec's `list` (GET or POST), `detail`, `remove` (ids) and `submit` of a family. */
export function specPaths(what: string, listMethods: ReadonlyArray<'GET' | 'POST'> = ['GET']): FamilyPath[] {
  return [
    ...listMethods.map((method): FamilyPath => ({ method, url: 'list', op: 'scope', summary: `${what}s in scope` })),
    { method: 'GET', url: 'detail', op: 'byId', summary: `One ${what} in full (id)` },
    { method: 'POST', url: 'remove', op: 'remove', summary: `Delete draft or returned ${what}s (ids)` },
    { method: 'POST', url: 'submit', op: 'submit', summary: `Save and submit a ${what} for review` },
  ];
}

/** The form's pickers a family offers: the tenant's people, and its depts. */
export function pickerPaths(depts = false): FamilyPath[] {
  return [
    {
      method: 'GET',
      url: 'teachers',
      op: 'teachers',
      summary: 'The kindergarten’s people (the form’s teacher pickers)',
    },
    ...(depts ? [{ method: 'GET', url: 'depts', op: 'depts', summary: 'The kindergarten’s depts' } as FamilyPath] : []),
  ];
}
