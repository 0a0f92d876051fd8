import { act, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VIRTUAL_FROM, VirtualRows } from './VirtualRows';

// jsdom has no layout: every element measures 0, so rows keep their estimated 40 px, and the window is
// jsdom's 1024 x 768. The list starts at the top of the page.
const ROW = 40;

const numbers = (count: number) => Array.from({ length: count }, (_, i) => i);

function Table({ count }: { count: number }) {
  return (
    <table aria-rowcount={count + 1}>
      <tbody data-testid="body">
        <VirtualRows
          rows={numbers(count)}
          rowKey={(n) => String(n)}
          estimateSize={ROW}
          kind="row"
          spacer={(height, ref) => (
            <tr ref={ref} aria-hidden="true" data-testid="spacer" style={{ height }}>
              <td />
            </tr>
          )}
          renderRow={(n, _index, props) => (
            <tr {...props} data-testid="row">
              <td>row {n}</td>
            </tr>
          )}
        />
      </tbody>
    </table>
  );
}

const rows = () => screen.queryAllByTestId('row');
const spacers = () => screen.getAllByTestId('spacer').map((s) => Number.parseFloat(s.style.height));

/** Scrolls the page by `y`: the list (at the top of the page) moves up by as much. */
function scrollTo(y: number) {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, -y, 0, 0));
  act(() => {
    Object.defineProperty(window, 'scrollY', { configurable: true, value: y });
    window.dispatchEvent(new Event('scroll'));
  });
}

describe('VirtualRows', () => {
  afterEach(() => Object.defineProperty(window, 'scrollY', { configurable: true, value: 0 }));

  it(`renders every row of a list of ${VIRTUAL_FROM}, without spacers`, () => {
    render(<Table count={VIRTUAL_FROM} />);
    expect(rows()).toHaveLength(VIRTUAL_FROM);
    expect(screen.queryAllByTestId('spacer')).toHaveLength(0);
    expect(rows()[VIRTUAL_FROM - 1]).toHaveAttribute('aria-rowindex', String(VIRTUAL_FROM + 1));
  });

  it('renders only the rows on and near the screen of 20,000, the rest held by spacers', () => {
    render(<Table count={20_000} />);
    const shown = rows();
    // 768 px of 40 px rows is 20 rows, plus the overscan below: far from 20,000.
    expect(shown.length).toBeGreaterThanOrEqual(20);
    expect(shown.length).toBeLessThan(40);
    expect(shown[0]).toHaveTextContent('row 0');
    // Each row keeps its place in the whole table (the header row is 1).
    expect(shown[0]).toHaveAttribute('aria-rowindex', '2');
    expect(shown[0]).toHaveAttribute('data-index', '0');
    // Above: nothing; below: the height of every row not rendered.
    const heights = spacers();
    expect(heights[0]).toBe(0);
    expect(heights.at(-1)).toBe((20_000 - shown.length) * ROW);
  });

  it('renders the rows at the scroll position, keeping the heights and the striping parity', () => {
    render(<Table count={20_000} />);
    scrollTo(400_000); // row 10,000 at the top of the screen
    const shown = rows();
    const first = Number(shown[0]?.getAttribute('data-index'));
    expect(first).toBeGreaterThan(9_980);
    expect(first).toBeLessThanOrEqual(10_000);
    expect(within(screen.getByTestId('body')).getByText('row 10000')).toBeInTheDocument();
    expect(shown.length).toBeLessThan(45);
    const heights = spacers();
    expect(heights[0]).toBe(first * ROW);
    expect(heights.reduce((a, b) => a + b, 0) + shown.length * ROW).toBe(20_000 * ROW);
    // Row i is the body's child i + 1, as when every row is rendered, so :nth-child(odd) stripes stay put.
    const children = [...screen.getByTestId('body').children];
    for (const row of shown) {
      const index = Number(row.getAttribute('data-index'));
      expect((children.indexOf(row) + 1) % 2).toBe((index + 1) % 2);
    }
  });

  it('gives list items their place in the whole list', () => {
    render(
      <div role="list">
        <VirtualRows
          rows={numbers(5_000)}
          rowKey={(n) => String(n)}
          estimateSize={ROW}
          kind="listitem"
          spacer={(height, ref) => <div ref={ref} style={{ height }} />}
          renderRow={(n, _index, props) => (
            <div {...props} role="listitem">
              item {n}
            </div>
          )}
        />
      </div>,
    );
    const items = screen.getAllByRole('listitem');
    expect(items.length).toBeLessThan(40);
    expect(items[2]).toHaveAttribute('aria-posinset', '3');
    expect(items[2]).toHaveAttribute('aria-setsize', '5000');
  });

  it('renders a row again only when its owner renders, not when the virtualizer alone moves', () => {
    const rendered: number[] = [];
    const list = (label: string) => (
      <div role="list">
        <VirtualRows
          rows={numbers(20_000)}
          rowKey={(n) => String(n)}
          estimateSize={ROW}
          kind="listitem"
          spacer={(height, ref) => <div ref={ref} style={{ height }} />}
          renderRow={(n, _index, props) => {
            rendered.push(n);
            return (
              <div {...props} role="listitem">
                {label} {n}
              </div>
            );
          }}
        />
      </div>
    );
    const { rerender } = render(list('item'));
    rendered.length = 0;
    // Two rows' scroll: the rows that stay on screen are kept; only those coming into range render.
    scrollTo(2 * ROW);
    expect(rendered).not.toContain(10);
    expect(rendered.length).toBeLessThanOrEqual(2);
    expect(screen.getByText('item 10')).toBeInTheDocument();
    // The owner rendered (a new renderRow): every row on screen renders again, so none shows stale state.
    rendered.length = 0;
    rerender(list('entry'));
    expect(rendered).toContain(10);
    expect(screen.getByText('entry 10')).toBeInTheDocument();
  });
});
