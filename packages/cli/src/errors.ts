import { FormatError, isLegacyError, ResourceError } from '@gltf-legacy/core';

/** The error part of a conversion record. */
export interface ErrorRecord {
  code: string;
  message: string;
  file?: string;
  offset?: number;
  field?: string;
  /** Stack trace, only for INTERNAL_ERROR (always a bug to report). */
  stack?: string;
}

const FS_CODES: Record<string, string> = {
  ENOENT: 'FILE_NOT_FOUND',
  EACCES: 'PERMISSION_DENIED',
  EPERM: 'PERMISSION_DENIED',
  EISDIR: 'IS_A_DIRECTORY',
  // a folder of the path is a file (`-o notes.txt/x.glb`)
  ENOTDIR: 'NOT_A_DIRECTORY',
  ENOSPC: 'DISK_FULL',
  EDQUOT: 'DISK_FULL',
  EROFS: 'READ_ONLY_FILE_SYSTEM',
  ENAMETOOLONG: 'NAME_TOO_LONG',
};

/**
 * Turns anything thrown during a conversion into a record with a stable code. Our own errors
 * keep theirs; file-system errors get `FILE_NOT_FOUND`, … ; anything else is `INTERNAL_ERROR`.
 */
export function toErrorRecord(e: unknown): ErrorRecord {
  if (e instanceof FormatError) {
    return { code: e.code, message: e.message, file: e.file, offset: e.offset, field: e.field };
  }
  if (e instanceof ResourceError) return { code: e.code, message: e.message, file: e.file };
  if (isLegacyError(e)) return { code: e.code, message: e.message };
  const errno = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof errno === 'string' && FS_CODES[errno]) {
    const path = (e as NodeJS.ErrnoException).path;
    return {
      code: FS_CODES[errno],
      message: path
        ? `${path}: ${FS_CODES[errno].toLowerCase().replace(/_/g, ' ')}`
        : String((e as Error).message),
      file: path,
    };
  }
  const err = e instanceof Error ? e : new Error(String(e));
  return {
    code: 'INTERNAL_ERROR',
    message: `internal error (a bug in gltf-legacy, please report it): ${err.message}`,
    stack: err.stack,
  };
}
