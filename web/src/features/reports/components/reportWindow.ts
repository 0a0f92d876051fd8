/** A window opened at the click that shows a report once it is generated. */
export interface ReportWindow {
  show: (guid: string) => void;
  close: () => void;
}

/**
 * Opens a new window at once (browsers allow a pop-up only while the click counts as the user's, which a
 * long generation outlasts) with a line saying the report is on its way; `show` sends it to the report.
 * Where the browser refused the window, `show` opens one then, which may be blocked but is all there is.
 */
export function openReportWindow(): ReportWindow {
  const opened = window.open('', '_blank');
  if (opened) {
    opened.document.title = 'Generating...';
    opened.document.body.textContent = 'Generating the report...';
  }
  return {
    show(guid) {
      const url = `/report/${encodeURIComponent(guid)}`;
      if (opened && !opened.closed) opened.location.href = url;
      else window.open(url, '_blank');
    },
    close() {
      opened?.close();
    },
  };
}
