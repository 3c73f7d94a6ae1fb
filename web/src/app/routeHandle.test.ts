import { describe, expect, it } from 'vitest';
import { titleKeyAt } from './routeHandle';

describe('a route’s tab title', () => {
  const editor = { titleKey: 'route.weekAdd', titleKeyWith: { param: 'id', titleKey: 'route.weekEdit' } };

  it('names the page by what it shows: 新增备课 without an id, 编辑备课 with one', () => {
    expect(titleKeyAt(editor, '')).toBe('route.weekAdd');
    expect(titleKeyAt(editor, '?id=12')).toBe('route.weekEdit');
    expect(titleKeyAt(editor, '?id=')).toBe('route.weekAdd');
    expect(titleKeyAt({ titleKey: 'route.home' }, '?id=3')).toBe('route.home');
  });
});
