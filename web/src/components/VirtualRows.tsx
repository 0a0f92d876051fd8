import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { Fragment, memo, useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Lists longer than this render only the rows near the screen; shorter ones render whole (the browser's
 * find-in-page and a screen reader's reading order then see every row, at a cost well inside a frame).
 */
export const VIRTUAL_FROM = 100;

/** Rows rendered beyond each edge of the screen, so a scroll shows rows before the next render lands. */
const OVERSCAN = 8;

/** What a row spreads onto its outermost element: measuring and its position in the whole list. */
export interface VirtualRowProps {
  ref: (element: HTMLElement | null) => void;
  'data-index': number;
  /** Rows of a table: the row's number in the whole table, its header row being 1. */
  'aria-rowindex'?: number;
  /** Items of a list: the item's number in the whole list and the list's length. */
  'aria-posinset'?: number;
  'aria-setsize'?: number;
}

interface VirtualRowsProps<T> {
  rows: readonly T[];
  rowKey: (row: T, index: number) => string;
  /** A row's height in pixels before it is measured. */
  estimateSize: number;
  /**
   * 'row' for the rows of a table (with one header row: aria-rowindex from 2, and the table carries
   * aria-rowcount = rows + 1), 'listitem' for the items of a list (aria-posinset and aria-setsize).
   */
  kind: 'row' | 'listitem';
  /** One row; spread `props` onto its outermost element. */
  renderRow: (row: T, index: number, props: VirtualRowProps) => ReactNode;
  /**
   * An empty element of the list's kind (a <tr> with one cell spanning the table in a <tbody>, a <div> in a
   * list) `height` pixels high, standing for the rows not rendered; give it `ref` when one is passed.
   */
  spacer: (height: number, ref?: (element: HTMLElement | null) => void) => ReactNode;
}

const NO_MEASURE = () => {};

/** A measured height, or the estimate where there is no layout (jsdom, a hidden tab). */
const measuredOr = (estimate: number) => (element: Element) =>
  element.getBoundingClientRect().height || estimate;

/**
 * The window scrolls and the list lies somewhere in the page: where it starts (the top spacer's place in
 * the document), measured after every render (alerts above it come and go) and on resizes.
 */
function useListTop(): [number, (element: HTMLElement | null) => void] {
  const element = useRef<HTMLElement | null>(null);
  const [top, setTop] = useState(0);
  const measure = useCallback(() => {
    if (!element.current) return;
    const next = Math.round(element.current.getBoundingClientRect().top + window.scrollY);
    setTop((current) => (current === next ? current : next));
  }, []);
  useLayoutEffect(measure);
  useLayoutEffect(() => {
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [measure]);
  const ref = useCallback(
    (node: HTMLElement | null) => {
      element.current = node;
      measure();
    },
    [measure],
  );
  return [top, ref];
}

/** The spacer of a list of blocks (<div> rows or cards). */
export const blockSpacer = (height: number, ref?: (element: HTMLElement | null) => void) => (
  <div ref={ref} aria-hidden="true" style={{ height }} />
);

/** The spacer of a table's body: one borderless row whose one cell spans the table's `columns`. */
export const tableSpacer =
  (columns: number) => (height: number, ref?: (element: HTMLElement | null) => void) => (
    <tr ref={ref} aria-hidden="true" style={{ height, border: 0 }}>
      <td colSpan={columns} style={{ padding: 0, border: 0 }} />
    </tr>
  );

const positionOf = (kind: 'row' | 'listitem', index: number, count: number) =>
  kind === 'row' ? { 'aria-rowindex': index + 2 } : { 'aria-posinset': index + 1, 'aria-setsize': count };

interface RowProps<T> {
  row: T;
  index: number;
  count: number;
  kind: 'row' | 'listitem';
  measure: (element: HTMLElement | null) => void;
  renderRow: VirtualRowsProps<T>['renderRow'];
}

/**
 * One rendered row, kept while its props are the same: when only the virtualizer's own state changed (a
 * row measured, the list's top measured, a scroll) the list renders again with the same `renderRow`, and
 * the rows that stay are not rendered again. A new `renderRow` (the list's owner rendered) renders every
 * row, so a row never shows stale state. A first render or a filter keystroke was two renders of every row
 * on screen, the second after the rows were measured (bench/README.md, stocks-dashboard: long lists).
 */
const Row = memo(function Row<T>({ row, index, count, kind, measure, renderRow }: RowProps<T>) {
  return renderRow(row, index, { ref: measure, 'data-index': index, ...positionOf(kind, index, count) });
}) as <T>(props: RowProps<T>) => ReactNode;

/**
 * The rows of a list or table that can grow long (2,000 stocks, 50,000 subscribers, 20 years of
 * announcements), with the page as the scroller: over VIRTUAL_FROM rows, only those on and near the screen
 * are rendered, between two spacers holding the height of the rest, so a first render and a filter
 * keystroke cost the same at 20,000 rows as at 50. Every row is measured once rendered (rows differ in
 * height). Striping by `:nth-child(odd)` keeps to the whole list's parity: a second, empty spacer is added
 * when the first rendered row would otherwise fall on the other parity.
 */
export function VirtualRows<T>({ rows, rowKey, estimateSize, kind, renderRow, spacer }: VirtualRowsProps<T>) {
  const virtual = rows.length > VIRTUAL_FROM;
  const [scrollMargin, topRef] = useListTop();
  const getItemKey = useCallback((index: number) => rowKey(rows[index] as T, index), [rows, rowKey]);
  const virtualizer = useWindowVirtualizer<HTMLElement>({
    count: virtual ? rows.length : 0,
    estimateSize: () => estimateSize,
    measureElement: measuredOr(estimateSize),
    getItemKey,
    overscan: OVERSCAN,
    scrollMargin,
  });
  const measure = virtualizer.measureElement;

  if (!virtual) {
    return (
      <>
        {rows.map((row, index) => (
          <Fragment key={rowKey(row, index)}>
            {renderRow(row, index, {
              ref: NO_MEASURE,
              'data-index': index,
              ...positionOf(kind, index, rows.length),
            })}
          </Fragment>
        ))}
      </>
    );
  }
  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items[items.length - 1];
  const before = first ? first.start - scrollMargin : 0;
  const after = last ? Math.max(0, virtualizer.getTotalSize() - (last.end - scrollMargin)) : 0;
  // The top spacer is child 1: row i stays on child i + 1's parity when an odd number of rows is skipped.
  const parityPad = first !== undefined && first.index % 2 === 0;
  return (
    <>
      {spacer(before, topRef)}
      {parityPad && spacer(0)}
      {items.map((item) => (
        <Row
          key={item.key}
          row={rows[item.index] as T}
          index={item.index}
          count={rows.length}
          kind={kind}
          measure={measure}
          renderRow={renderRow}
        />
      ))}
      {spacer(after)}
    </>
  );
}
