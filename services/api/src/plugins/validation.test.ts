import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withoutEmptyValues, zodValidatorCompiler } from './validation';

describe('an empty query value is an absent one', () => {
  it('drops empty values, and empty entries of a repeated parameter', () => {
    expect(withoutEmptyValues({ deptId: '', account: 'li', ids: ['', '2'], tags: ['', ''], n: 0 })).toEqual({
      account: 'li',
      ids: '2',
      n: 0,
    });
    expect(withoutEmptyValues({ ids: ['1', '', '2'] })).toEqual({ ids: ['1', '2'] });
    expect(withoutEmptyValues(undefined)).toBeUndefined();
  });

  it('applies to every route’s query schema, not to its body', () => {
    const schema = z.object({ deptId: z.string().regex(/^\d+$/).optional() });
    const query = zodValidatorCompiler({ schema, httpPart: 'querystring', method: 'GET', url: '/x' });
    expect(query({ deptId: '' })).toEqual({ value: {} });
    const body = zodValidatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/x' });
    expect(body({ deptId: '' })).toHaveProperty('error');
  });
});
