import { isValidGrpcMetadataValue, isValidHeaderValue } from "./validity.js";

/**
 * One header slot's last value that passed the HTTP header-value check
 * (`isValidHeaderValue`). An identity's values repeat from call to call (the
 * same session, user and claims), so a value equal to the last one that passed
 * is valid without a second scan; any other value is scanned and, when it
 * passes, remembered. Comparing two strings costs at most one pass over the
 * shorter one, so the check stays linear in the value. A pure memo: what it
 * answers is exactly what `isValidHeaderValue` answers.
 * @internal
 */
export class CheckedHeaderValue {
  last = "";
  readonly key: string;

  constructor(key: string) {
    this.key = key;
  }

  ok(value: string): boolean {
    if (value === this.last) return true;
    if (!isValidHeaderValue(value)) return false;
    this.last = value;
    return true;
  }
}

/**
 * {@link CheckedHeaderValue} for the gRPC metadata-value check
 * (`isValidGrpcMetadataValue`). A class of its own so that each check is a
 * direct call.
 * @internal
 */
export class CheckedGrpcValue {
  last = "";
  readonly key: string;

  constructor(key: string) {
    this.key = key;
  }

  ok(value: string): boolean {
    if (value === this.last) return true;
    if (!isValidGrpcMetadataValue(value)) return false;
    this.last = value;
    return true;
  }
}
