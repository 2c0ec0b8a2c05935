// Error texts: C library strerror() for Linux programs (musl on Alpine/BusyBox, glibc on Debian) and the Win32
// messages cmd.exe prints.

import { FsError, type FsErrorCode } from '../fs/vfs.js';

export type Libc = 'musl' | 'glibc';

const COMMON: Record<FsErrorCode, string> = {
  ENOENT: 'No such file or directory',
  EEXIST: 'File exists',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  EROFS: 'Read-only file system',
  EACCES: 'Permission denied',
  ENOTEMPTY: 'Directory not empty',
  ELOOP: 'Too many levels of symbolic links',
  EINVAL: 'Invalid argument',
  EBUSY: 'Device or resource busy',
};
// musl src/errno/__strerror.h words a few differently.
const MUSL: Partial<Record<FsErrorCode, string>> = { ELOOP: 'Symbolic link loop', EBUSY: 'Resource busy' };

export function strerror(code: FsErrorCode, libc: Libc = 'glibc'): string {
  return (libc === 'musl' ? MUSL[code] : undefined) ?? COMMON[code];
}

export function errText(e: unknown, libc: Libc = 'glibc'): string {
  if (e instanceof FsError) return strerror(e.code, libc);
  throw e;
}

/** Win32 message for a failed file operation, as cmd.exe prints it. */
export function winText(e: unknown, what: 'file' | 'path' = 'file'): string {
  if (!(e instanceof FsError)) throw e;
  switch (e.code) {
    case 'ENOENT': return what === 'file' ? 'The system cannot find the file specified.' : 'The system cannot find the path specified.';
    case 'ENOTDIR': return 'The directory name is invalid.';
    case 'EROFS': case 'EACCES': case 'EISDIR': return 'Access is denied.';
    case 'ENOTEMPTY': return 'The directory is not empty.';
    case 'EBUSY': return 'The process cannot access the file because it is being used by another process.';
    case 'EEXIST': return 'Cannot create a file when that file already exists.';
    default: return 'The parameter is incorrect.';
  }
}
