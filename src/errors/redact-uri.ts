/**
 * A URI as an error message may show it: the password of its user part hidden (`postgresql://bo:***@db/app`).
 * Everything from the first `:` after the user's name to the last `@` is hidden, so a password holding `/`, `?`,
 * `#`, `@` or `:` unescaped is hidden whole; a URI with an `@` in its path or query loses more than the password,
 * which a message can spare.
 */
export function redactUriPassword(uri: string): string {
  return uri.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/?#@]*:)[\s\S]*@/i, "$1***@");
}
