/**
 * Runs `work` when the page is idle (after the next frames are painted), or soon where the browser has no
 * idle callbacks (Safari); returns its cancel, for an effect's cleanup.
 */
export function whenIdle(work: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(work, { timeout: 1000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(work, 50);
  return () => window.clearTimeout(id);
}
