/**
 * An operator route's answer that is a file, not JSON (O33: a document B35 stored): the router
 * sends its bytes with its type, shown inline by a browser. A route that answers one declares
 * the media types in `produces`, so its reference names them.
 */
export class FileAnswer {
  constructor(
    readonly contentType: string,
    readonly bytes: Buffer,
    /** The name a browser saves it under. */
    readonly name: string,
  ) {}
}
