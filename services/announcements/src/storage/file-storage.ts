import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

/** A file under the storage root, as the file cleanup tool lists it. */
export interface StoredFileInfo {
  /** Relative to the root, '/'-separated, e.g. 'BHP-ASX/2026'. */
  directory: string;
  filename: string;
  size: number;
}

/**
 * Where announcement PDFs live (DESIGN.md: files go through a storage interface). Paths are relative to the
 * storage root; the default implementation is a local directory (DATA_DIR). Another (object storage) would
 * implement the same methods.
 */
export abstract class FileStorage {
  /** Writes atomically (temp file + rename), so a reader never sees half a PDF. Returns size and SHA-256. */
  abstract write(path: string, bytes: Buffer): Promise<{ size: number; sha256: string }>;
  /** Reads `length` bytes from `offset`; null when the file does not exist. */
  abstract read(
    path: string,
    offset: number,
    length: number,
  ): Promise<{ bytes: Buffer; size: number } | null>;
  abstract exists(path: string): Promise<boolean>;
  abstract size(path: string): Promise<number | null>;
  /** Every file under the root. */
  abstract list(): AsyncIterable<StoredFileInfo>;
  abstract sha256(path: string): Promise<string | null>;
}

/** FileStorage on a local directory. */
export class LocalFileStorage extends FileStorage {
  constructor(readonly root: string) {
    super();
  }

  /** Refuses paths that would leave the root ('..', absolute). */
  private resolve(path: string): string {
    const full = normalize(join(this.root, path));
    if (full !== this.root && !full.startsWith(this.root.endsWith(sep) ? this.root : this.root + sep)) {
      throw new Error(`path ${path} leaves the storage root`);
    }
    return full;
  }

  async write(path: string, bytes: Buffer): Promise<{ size: number; sha256: string }> {
    const full = this.resolve(path);
    await fs.mkdir(dirname(full), { recursive: true });
    const temp = `${full}.${process.pid}.${Date.now()}.part`;
    await fs.writeFile(temp, bytes);
    await fs.rename(temp, full);
    return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }

  async read(path: string, offset: number, length: number) {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.resolve(path), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      const { size } = await handle.stat();
      const want = Math.max(0, Math.min(length, size - offset));
      const bytes = Buffer.alloc(want);
      if (want > 0) await handle.read(bytes, 0, want, offset);
      return { bytes, size };
    } finally {
      await handle.close();
    }
  }

  async exists(path: string): Promise<boolean> {
    return (await this.size(path)) !== null;
  }

  async size(path: string): Promise<number | null> {
    try {
      return (await fs.stat(this.resolve(path))).size;
    } catch {
      return null;
    }
  }

  async sha256(path: string): Promise<string | null> {
    try {
      return createHash('sha256')
        .update(await fs.readFile(this.resolve(path)))
        .digest('hex');
    } catch {
      return null;
    }
  }

  async *list(): AsyncIterable<StoredFileInfo> {
    const walk = async function* (dir: string): AsyncIterable<string> {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) yield* walk(full);
        else if (entry.isFile() && !entry.name.endsWith('.part')) yield full;
      }
    };
    for await (const full of walk(this.root)) {
      const rel = relative(this.root, full).split(sep);
      const filename = rel.pop() ?? '';
      // A file deleted (or renamed into place) since its directory was read is not listed: another
      // process changes the store while the cleanup report walks it.
      const stat = await fs.stat(full).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return undefined;
        throw err;
      });
      if (stat) yield { directory: rel.join('/'), filename, size: stat.size };
    }
  }
}

/** Where an announcement's PDF is stored: '<TICKER>-<EXCHANGE>/<year>/<sendGuid>.pdf'. */
export function pdfPathFor(combinedTicker: string, releasedAt: Date, sendGuid: string): string {
  const folder = combinedTicker.replace(/[^A-Za-z0-9]+/g, '-');
  return `${folder}/${releasedAt.getUTCFullYear()}/${sendGuid}.pdf`;
}
