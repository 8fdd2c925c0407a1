import { existsSync, readFileSync } from 'node:fs';

/**
 * Files served as they are whose content never changes under their name (content-hashed bundles,
 * Swagger UI's assets): read from disk on their first request and kept. A file not there yet is
 * looked for again on the next request.
 */
export class StaticFiles {
  private readonly cache = new Map<string, Buffer>();

  read(file: string): Buffer | undefined {
    let content = this.cache.get(file);
    if (content === undefined && existsSync(file)) {
      content = readFileSync(file);
      this.cache.set(file, content);
    }
    return content;
  }
}
