// What `vite build` put in each chunk, written beside vite's manifest (dist/.vite/chunk-modules.json): the
// chunk's file, whether it is the entry, the chunks it imports statically, and its modules (paths relative
// to the web folder). scripts/test/web-bundle.test.mjs reads it instead of building the app a second time
// when the build is newer than every source it was made from.
import path from 'node:path';

export const CHUNK_MODULES_FILE = '.vite/chunk-modules.json';

/** A rollup plugin that emits CHUNK_MODULES_FILE for the chunks of the build, modules relative to `root`. */
export function chunkModules(root) {
  return {
    name: 'irp-chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle)
        .filter((output) => output.type === 'chunk')
        .map((chunk) => ({
          fileName: chunk.fileName,
          isEntry: chunk.isEntry,
          imports: chunk.imports,
          modules: Object.keys(chunk.modules).map((id) => {
            // A virtual module (rollup's \0 prefix, e.g. a CommonJS wrapper of a file) keeps its prefix.
            const virtual = id.startsWith('\0') ? '\0' : '';
            const file = id.slice(virtual.length).split('?')[0];
            return virtual + (path.isAbsolute(file) ? path.relative(root, file) : file).replaceAll('\\', '/');
          }),
        }));
      this.emitFile({
        type: 'asset',
        fileName: CHUNK_MODULES_FILE,
        source: `${JSON.stringify({ chunks }, null, 1)}\n`,
      });
    },
  };
}
