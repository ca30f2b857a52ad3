/**
 * Node 24 appends this to a TLS verification error (`unable to verify the
 * first certificate; if the root CA is installed locally, try running Node.js
 * with --use-system-ca`). Go has no such hint and Node 20 and 22 do not add it.
 */
const SYSTEM_CA_HINT = "; if the root CA is installed locally, try running Node.js with --use-system-ca";

/**
 * A Node error's message as every supported Node version words it (the text
 * the model reads must not change with the host's Node): Node 24's
 * `--use-system-ca` hint after a TLS verification error is dropped.
 * @internal Does not follow semver.
 */
export function nodeErrorText(message: string): string {
  return message.includes(SYSTEM_CA_HINT) ? message.replace(SYSTEM_CA_HINT, "") : message;
}
