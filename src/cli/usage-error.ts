/** A bad command line: printed as one line plus the usage, exit 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
