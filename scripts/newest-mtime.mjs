// Whether something built is older than what it was built from: the newest modification time of a set of
// files and folders (walked whole). Lets a script skip a build whose output is current (buildProto) and a
// test read the build `make test` has just made (scripts/test/web-bundle.test.mjs).
import fs from 'node:fs';
import path from 'node:path';

/** The newest modification time under `paths` (files, or folders walked whole); 0 when none exists. */
export function newestMtimeMs(paths) {
  let newest = 0;
  const visit = (p) => {
    const stat = fs.statSync(p, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) visit(path.join(p, name));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  paths.forEach(visit);
  return newest;
}

/** Whether `output` exists and is newer than every file under `inputs`. */
export function isNewerThan(output, inputs) {
  const stat = fs.statSync(output, { throwIfNoEntry: false });
  return !!stat && stat.mtimeMs >= newestMtimeMs(inputs);
}
