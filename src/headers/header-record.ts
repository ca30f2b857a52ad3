/**
 * A fresh, empty header object that stays in V8's fast-properties mode while
 * it is filled with 20–60 computed keys.
 *
 * Why: every header builder fills a plain object with keyed stores,
 * `out[name] = value`, where `name` varies. V8 lets an object grow by keyed
 * stores only up to `max(12, in-object slots)` out-of-object fields
 * (`kFastPropertiesSoftLimit` in `Map::TooManyFastProperties`); past that it
 * turns the object into a hash-table ("dictionary") object. A `{}` literal has
 * 4 in-object slots, so a header object goes to dictionary mode at about
 * 16–17 keys, and the identity of a typical call (11 flat keys and 10 claims:
 * 21 headers) always did. Measured on Node 20.20 (V8 11.3, 2-vCPU EPYC), 21
 * keyed stores cost about 590–910 ns on a `{}` literal and about 190–290 ns on
 * this object, which has 32 in-object slots: it keeps fast properties up to
 * 32 + 32 = 64 keys. Fast objects are also cheaper for whoever reads them next
 * (`Object.keys`, the merge, undici).
 *
 * How: V8 sizes the first object of a constructor from the parser's count of
 * `this.x = …` assignments in its body (the `fill` branch below, never taken
 * after module load) plus a margin, then watches the first 7 constructions
 * ("in-object slack tracking") and shrinks every later object to the largest
 * number of slots those used. So the first call constructs it 8 times,
 * filled, before the first real one: tracking ends at 32 slots, whatever the
 * first real header object holds. Without that, a host whose first headers are small would lock in a
 * small object and lose the gain.
 *
 * The prototype is `Object.prototype`, so a result is an ordinary object
 * (`Object.getPrototypeOf(x) === Object.prototype`, `x.constructor === Object`,
 * equal to a literal under `assert.deepStrictEqual`) whose keys are ordinary
 * writable, enumerable, configurable data properties; the 32 slots are
 * storage, never properties, and the constructor is never exposed.
 *
 * None of this changes a result: if another V8 sizes or tracks differently,
 * the object is merely slower (dictionary mode, as with `{}`).
 * @internal Does not follow semver.
 */
export function newHeaderRecord(): Record<string, string> {
  if (!tracked) endSlackTracking();
  return new HeaderRecord(false);
}

interface HeaderRecordConstructor {
  new (fill: boolean): Record<string, string>;
  prototype: object;
}

/** 32 `this.sN` assignments: the parser's estimate sizes the initial map. Written out: no `eval`. */
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
HeaderRecord.prototype = Object.prototype;

/**
 * Whether {@link endSlackTracking} has run. Done on the first call rather than
 * at import, so that a bundler cannot drop it as a side-effect-free
 * statement and an import that builds no header costs nothing.
 */
let tracked = false;

/** In-object slack tracking ends after 7 constructions: end it at full size, before any real header object. */
function endSlackTracking(): void {
  for (let i = 0; i < 8; i++) new HeaderRecord(true);
  tracked = true;
}
