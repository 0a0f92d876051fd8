// A node:test reporter that writes one JSON line per finished test (pass or fail, with its file, skip/todo
// reason and duration): what scripts/test.mjs reads for the infra suite's counts, skips and slowest tests.
//   node --test --test-reporter=./scripts/testing/node-test-reporter.mjs --test-reporter-destination=FILE
export default async function* nodeTestJsonLines(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { name, nesting, file, skip, todo, details } = event.data;
    yield `${JSON.stringify({
      status: event.type === 'test:pass' ? 'pass' : 'fail',
      name,
      nesting,
      file,
      skip,
      todo,
      suite: details?.type === 'suite',
      durationMs: details?.duration_ms,
    })}\n`;
  }
}
