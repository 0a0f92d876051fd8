import { describe, expect, it } from 'vitest';
import { textFilter } from './textFilter';

interface Row {
  name: string;
  place: string;
}
const byNameOrPlace = textFilter<Row>((row) => [row.name, row.place]);
const rows: Row[] = [
  { name: 'Alpha', place: 'Sydney' },
  { name: 'Beta', place: 'Perth' },
];
const names = (found: Row[]) => found.map((row) => row.name);

describe('textFilter', () => {
  it('matches any field, ignoring case and the text around it', () => {
    expect(names(byNameOrPlace(rows, ' SYD '))).toEqual(['Alpha']);
    expect(names(byNameOrPlace(rows, 'eta'))).toEqual(['Beta']);
    expect(names(byNameOrPlace(rows, '   '))).toEqual(['Alpha', 'Beta']);
  });

  it('never matches across two fields', () => {
    expect(byNameOrPlace(rows, 'alphasydney')).toEqual([]);
    expect(byNameOrPlace(rows, 'alpha\nsydney')).toEqual([]);
  });

  it('keeps only the rows `keep` accepts', () => {
    expect(names(byNameOrPlace(rows, '', (row) => row.place === 'Perth'))).toEqual(['Beta']);
  });

  it('reads a new row object afresh (the search text is kept per object)', () => {
    expect(names(byNameOrPlace(rows, 'alpha'))).toEqual(['Alpha']);
    expect(names(byNameOrPlace([{ ...rows[0]!, name: 'Gamma' }], 'gamma'))).toEqual(['Gamma']);
  });
});

describe('textFilter.prepare', () => {
  it('reads each row once: a prepared row is matched without reading its fields again', () => {
    let reads = 0;
    const counted = textFilter<Row>((row) => {
      reads++;
      return [row.name, row.place];
    });
    counted.prepare(rows);
    expect(reads).toBe(2);
    expect(names(counted(rows, 'perth'))).toEqual(['Beta']);
    expect(reads).toBe(2);
  });
});
