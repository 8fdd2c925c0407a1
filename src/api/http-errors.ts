import { BourseError } from '../core/errors.js';

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
}

/**
 * Any failure as the `{code, msg}` error it answers with: registry errors as they are, the
 * framework's own body errors by their status, everything else -1001 (outcome unknown).
 */
export function toBourseError(error: unknown): BourseError {
  if (error instanceof BourseError) return error;
  const { code, statusCode } = (error ?? {}) as FastifyLikeError;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || statusCode === 413) return new BourseError('BODY_TOO_LARGE');
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || statusCode === 415) return new BourseError('UNSUPPORTED_MEDIA');
  if (code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return new BourseError('ILLEGAL_CHARS', ['body', 'a form or JSON body']);
  }
  if (statusCode === 404) return new BourseError('UNKNOWN_PATH');
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return new BourseError('ILLEGAL_CHARS', ['request', 'a well-formed HTTP request']);
  }
  return new BourseError('INTERNAL');
}
