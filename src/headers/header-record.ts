/**
 * A fresh, empty header object that keeps V8's fast properties while it is
 * filled with up to 64 computed keys.
 *
 * Why: every header builder fills an object with keyed stores,
 * `out[name] = value`, where `name` varies. V8 lets an object grow by keyed
 * stores only up to `max(12, in-object slots)` out-of-object fields
 * (`kFastPropertiesSoftLimit`, `Map::TooManyFastProperties`); past that it
 * turns the object into a hash table ("dictionary mode"). A `{}` literal has
 * 4 in-object slots, so it goes to dictionary mode at about 17 keys, and the
 * identity of a typical call (11 flat keys and 10 claims: 21 headers) always
 * did. Measured on Node 20.20 (V8 11.3, 2-vCPU EPYC, shared machine): 21
 * keyed stores cost 590–910 ns on a `{}` literal and 190–290 ns on this
 * object; `toOutboundHeaders` of that identity went from about 920 to 530 ns.
 * With 32 in-object slots it stays fast up to 32 + 32 = 64 keys; past that it
 * goes to dictionary mode like `{}`, with the same result. Fast objects are
 * also cheaper to read for whoever comes next (`Object.keys`, the merge, undici).
 *
 * How: V8 gives the first objects of a constructor as many in-object slots as
 * the parser counted `this.x = …` assignments in its body (the `fill` branch
 * below, only taken by {@link setUp}) plus a margin, then watches the first 7
 * constructions ("in-object slack tracking") and shrinks every later object
 * to the most slots any of those used. {@link setUp} therefore constructs 8
 * filled objects before the first real one, so tracking ends at 32 slots
 * whatever the first real headers hold. Without it, a host whose first
 * headers are small locks in a small object: measured after 20,000 small
 * identities, the 21-header target then stays in dictionary mode at about
 * 1,480 ns per call instead of 840 ns.
 *
 * The prototype is `Object.prototype`, so a result is an ordinary object
 * (`Object.getPrototypeOf(x) === Object.prototype`, `x.constructor === Object`,
 * equal to a literal under `assert.deepStrictEqual`) whose keys are ordinary
 * writable, enumerable, configurable data properties. The 32 slots are
 * storage, never properties; the constructor is never exposed.
 *
 * Nothing here changes a result: if another engine or V8 version sizes or
 * tracks objects differently, the object is only slower (as `{}` was).
 * @internal Does not follow semver.
 */
export function newHeaderRecord(): Record<string, string> {
  if (!ready) setUp();
  return new HeaderRecord(false);
}

interface HeaderRecordConstructor {
  new (fill: boolean): Record<string, string>;
  prototype: object;
}

/** 32 `this.sN` assignments, written out (no `eval`): the parser's count sizes the objects. */
const HeaderRecord = function HeaderRecord(this: Record<string, string>, fill: boolean): void {
  if (fill) {
    this.s0 = "";
    this.s1 = "";
    this.s2 = "";
    this.s3 = "";
    this.s4 = "";
    this.s5 = "";
    this.s6 = "";
    this.s7 = "";
    this.s8 = "";
    this.s9 = "";
    this.s10 = "";
    this.s11 = "";
    this.s12 = "";
    this.s13 = "";
    this.s14 = "";
    this.s15 = "";
    this.s16 = "";
    this.s17 = "";
    this.s18 = "";
    this.s19 = "";
    this.s20 = "";
    this.s21 = "";
    this.s22 = "";
    this.s23 = "";
    this.s24 = "";
    this.s25 = "";
    this.s26 = "";
    this.s27 = "";
    this.s28 = "";
    this.s29 = "";
    this.s30 = "";
    this.s31 = "";
  }
} as unknown as HeaderRecordConstructor;

/**
 * Whether {@link setUp} has run. It runs on the first call rather than at
 * import, so that no bundler can drop it as a side-effect-free statement and
 * an import that builds no header costs nothing.
 */
let ready = false;

/** Sets the prototype, then ends slack tracking (7 constructions) at full size, before any real header object. */
function setUp(): void {
  HeaderRecord.prototype = Object.prototype;
  for (let i = 0; i < 8; i++) new HeaderRecord(true);
  ready = true;
}
