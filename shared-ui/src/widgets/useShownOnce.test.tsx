import { renderHook } from '@testing-library/react';
import { useShownOnce } from './useShownOnce';

test('false until first shown, then true for good', () => {
  const { result, rerender } = renderHook(({ shown }) => useShownOnce(shown), { initialProps: { shown: false } });
  expect(result.current).toBe(false);
  rerender({ shown: true });
  expect(result.current).toBe(true);
  rerender({ shown: false });
  expect(result.current).toBe(true);
});
