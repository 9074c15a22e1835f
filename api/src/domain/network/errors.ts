/**
 * Errors raised for bad network input. Both are user errors: an HTTP layer should answer them with a
 * 4xx and the importer must roll back whatever it inserted for the file.
 */

/** The file itself is unusable (bad XML, truncated, wrong root, unsupported encoding, bad values). */
export class NetworkParseError extends Error {
  override readonly name = 'NetworkParseError';
  /** 1-based line of the problem (0 when no position applies). */
  readonly line: number;
  /** 1-based column of the problem (1 when only the line is known). */
  readonly column: number;
  /** The message without the position prefix, for UIs that show line/column in their own columns. */
  readonly reason: string;

  constructor(line: number, column: number, reason: string) {
    super(`Line ${line}, column ${column}: ${reason}`);
    this.line = line;
    this.column = column;
    this.reason = reason;
  }
}

/** The import settings are wrong (e.g. an unknown coordinate encoding); raised before reading anything. */
export class NetworkOptionError extends Error {
  override readonly name = 'NetworkOptionError';
}
