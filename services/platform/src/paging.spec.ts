import { pageOfRows } from './paging';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i + 1}` }));

describe('pageOfRows', () => {
  it('gives the page and its last row as next when the read went past it', () => {
    expect(pageOfRows(rows(4), 3)).toEqual({ rows: rows(3), next: 'r3' });
  });

  it('gives the rows and no next when the read ended within the page', () => {
    expect(pageOfRows(rows(3), 3)).toEqual({ rows: rows(3), next: null });
    expect(pageOfRows([], 3)).toEqual({ rows: [], next: null });
  });
});
