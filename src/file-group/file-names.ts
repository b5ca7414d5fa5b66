// Base and log file names (hudi-format.md §4.1): `<fileId>_<writeToken>_<instant>.<ext>` and
// `.<fileId>_<instant>.log.<version>_<writeToken>[.cdc]`. Anything else in a partition is junk to skip.

/** A parsed base file name. */
export interface BaseFileName {
  fileId: string;
  writeToken: string;
  /** Requested time of the action that wrote the file. */
  instantTime: string;
  /** `parquet`, `orc`, `hfile`, `lance`. */
  extension: string;
}

/** A parsed log file name. */
export interface LogFileName {
  fileId: string;
  /** v6: the base instant of the slice; v8+: the deltacommit that wrote it. */
  instantTime: string;
  /** `log` (or `archive` in archived timelines). */
  extension: string;
  version: number;
  writeToken: string | undefined;
  cdc: boolean;
}

const BASE = /^([^_.][^_]*)_([^_]+)_(\d+)\.(parquet|orc|hfile|lance)$/;
const LOG = /^\.(.+)_(\d*)\.(log|archive)\.(\d+)(?:_(\d+-\d+-\d+))?(\.cdc)?$/;

/** Parse a base file name, or undefined when it is not one. */
export function parseBaseFileName(name: string): BaseFileName | undefined {
  const m = BASE.exec(name);
  if (!m) return undefined;
  return { fileId: m[1] as string, writeToken: m[2] as string, instantTime: m[3] as string, extension: m[4] as string };
}

/** Parse a log file name, or undefined when it is not one. */
export function parseLogFileName(name: string): LogFileName | undefined {
  const m = LOG.exec(name);
  if (!m) return undefined;
  return {
    fileId: m[1] as string,
    instantTime: m[2] as string,
    extension: m[3] as string,
    version: Number(m[4]),
    writeToken: m[5],
    cdc: m[6] !== undefined,
  };
}

/** Compose a base file name. */
export function baseFileName(fileId: string, writeToken: string, instantTime: string, extension = 'parquet'): string {
  return `${fileId}_${writeToken}_${instantTime}.${extension}`;
}

/** Compose a log file name. */
export function logFileName(fileId: string, instantTime: string, version: number, writeToken: string): string {
  return `.${fileId}_${instantTime}.log.${version}_${writeToken}`;
}

/** Order log files as Hudi does within a slice: by version, then write token. */
export function compareLogFiles(a: Pick<LogFileName, 'version' | 'writeToken'>, b: Pick<LogFileName, 'version' | 'writeToken'>): number {
  if (a.version !== b.version) return a.version - b.version;
  const x = a.writeToken ?? '';
  const y = b.writeToken ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}
