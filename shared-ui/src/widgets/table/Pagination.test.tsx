import { pageItems } from './Pagination';

describe('pageItems (specification §9: 5 pages in range, 2 margin pages)', () => {
  test.each([
    [1, 1, [1]],
    [3, 7, [1, 2, 3, 4, 5, 6, 7]],
    [1, 20, [1, 2, 3, 4, 5, 'break-right', 19, 20]],
    [3, 20, [1, 2, 3, 4, 5, 'break-right', 19, 20]],
    [6, 20, [1, 2, 3, 4, 5, 6, 7, 8, 'break-right', 19, 20]],
    [10, 20, [1, 2, 'break-left', 8, 9, 10, 11, 12, 'break-right', 19, 20]],
    [18, 20, [1, 2, 'break-left', 16, 17, 18, 19, 20]],
    [20, 20, [1, 2, 'break-left', 16, 17, 18, 19, 20]],
    // A break never hides a single page: that page is shown instead.
    [5, 20, [1, 2, 3, 4, 5, 6, 7, 'break-right', 19, 20]],
    [6, 11, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]],
    // Out of range asks are held to the pages that exist.
    [0, 20, [1, 2, 3, 4, 5, 'break-right', 19, 20]],
    [99, 3, [1, 2, 3]],
    [1, 0, [1]],
  ] as const)('page %i of %i', (current, pageCount, expected) => {
    expect(pageItems(current, pageCount)).toEqual(expected);
  });
});
