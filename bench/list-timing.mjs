// Timing long lists in Chromium (issue 35), measured inside the page so neither the bench's round trips to
// the browser nor the network count: an init script notes when a list's data arrived (the resource
// timing's responseEnd of its request), when a key went down (the event's timeStamp) and when a watched
// element's text changed (a MutationObserver), then the next animation frame after that change, i.e. when
// the browser could paint it. All in the page's performance.now() time.
/* global document, window, requestAnimationFrame, MutationObserver -- these run in the page */

/**
 * The init script (page.addInitScript(listTimingScript, selectors)): window.__listTiming holds the marks,
 * each change of the text of one of `selectors` from the first DOM on.
 */
export function listTimingScript(selectors) {
  const timing = { keyAt: null, changes: [] };
  window.__listTiming = timing;
  document.addEventListener('keydown', (event) => (timing.keyAt = event.timeStamp), true);
  const last = new Map();
  const observer = new MutationObserver(() => {
    for (const selector of selectors) {
      const text = document.querySelector(selector)?.textContent ?? null;
      if (text === (last.get(selector) ?? null)) continue;
      last.set(selector, text);
      const change = { selector, text, at: performance.now(), frameAt: null };
      timing.changes.push(change);
      requestAnimationFrame(() => (change.frameAt = performance.now()));
    }
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
}

/** Forgets the changes noted so far (before a keystroke). */
export const forgetChanges = (page) => page.evaluate(() => (window.__listTiming.changes = []));

/** Waits for the first change of `selector`'s text matching `pattern`, and its frame; returns it. */
export async function changeMatching(page, selector, pattern, timeout = 60_000) {
  const handle = await page.waitForFunction(
    ([sel, source]) => {
      const re = new RegExp(source);
      const change = window.__listTiming.changes.find(
        (c) => c.selector === sel && c.text !== null && re.test(c.text),
      );
      return change && change.frameAt !== null ? change : null;
    },
    [selector, pattern.source],
    { timeout, polling: 50 },
  );
  return handle.jsonValue();
}

/**
 * responseEnd of the last request whose URL contains `part` (ms, page time); with `first`, of the first (a
 * paged list: its first page, whatever pages followed).
 */
export const responseEnd = (page, part, { first = false } = {}) =>
  page.evaluate(
    ([p, firstOne]) => {
      const entries = performance.getEntriesByType('resource').filter((e) => e.name.includes(p));
      if (!entries.length) return null;
      return (firstOne ? entries[0] : entries[entries.length - 1]).responseEnd;
    },
    [part, first],
  );

/** When the last key went down (page time). */
export const keyAt = (page) => page.evaluate(() => window.__listTiming.keyAt);
