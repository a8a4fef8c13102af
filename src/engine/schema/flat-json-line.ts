/**
 * The plan of the fast path from one JSON Lines line to a validated document, for the common case
 * of a bulk load: a flat mapping (no wildcard, dotted or semantic fields) and a line that is one
 * JSON object. `flat-json-bytes.ts` reads such lines from their bytes under this plan; any line it
 * is not sure of takes the general path (JSON.parse, validateDocument, JSON.stringify).
 */
import { isWildcardName } from './field-name.js';
import type { Mapping } from './field-table.js';
import { planOf } from './field-values.js';
import type { FieldPlan } from './field-values.js';

/** A mapping compiled for the fast path. */
export interface FlatPlan {
  readonly fields: readonly FieldPlan[];
  /** `"name":` of each field, JSON-quoted, for the stored JSON. */
  readonly storedKeys: readonly string[];
  /** Scratch of the line reader, per slot (the fields, then `_id`): kind, value start, value end. */
  readonly kinds: Uint8Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** Per slot: 1 when the value holds a byte above 0x7f (a well-formed UTF-8 sequence: its string needs `utf8Slice`, not `latin1Slice`). */
  readonly highs: Uint8Array;
}

/** Nesting (arrays and objects inside the top object) beyond which the general path takes the line. */
export const MAX_DEPTH = 64;

/** How a mapped value was written (a number, to live in a Uint8Array). */
export const Kind = {
  absent: 0,
  /** A string without escapes. */
  plainString: 1,
  /** A string whose escapes are all ones `JSON.stringify` writes back the same (`\" \\ \b \f \n \r \t`). */
  shortEscapedString: 2,
  /** Any other string with escapes (`\/`, `\u....`). */
  escapedString: 3,
  number: 4,
  literal: 5,
  /** An array or object. */
  composite: 6,
} as const;

const plans = new WeakMap<Mapping, FlatPlan | null>();

/**
 * The fast-path plan of `mapping`, or null when its documents need the general path: wildcard,
 * dotted or semantic fields, or a field name that would change key order or meaning in a JS
 * object (an array index such as "12", or `__proto__`).
 */
export function flatPlanOf(mapping: Mapping): FlatPlan | null {
  let plan = plans.get(mapping);
  if (plan !== undefined) return plan;
  plan = null;
  const mapped = mapping.fields.filter((f) => f.name !== '_id');
  // A name with a lone surrogate has no UTF-8 to match a key's bytes against.
  const eligible = !mapping.hasWildcards && mapped.every((f) => !/\p{Cs}/u.test(f.name) &&
    !isWildcardName(f.name) && !f.name.includes('.') && f.semantic == null && !/^\d+$/.test(f.name) && f.name !== '__proto__');
  if (eligible) {
    const fields = mapped.map((f) => planOf(f));
    const slots = fields.length + 1;
    plan = {
      fields,
      storedKeys: fields.map((f) => `,${JSON.stringify(f.name)}:`),
      kinds: new Uint8Array(slots),
      starts: new Int32Array(slots),
      ends: new Int32Array(slots),
      highs: new Uint8Array(slots),
    };
  }
  plans.set(mapping, plan);
  return plan;
}

/**
 * Whether the value in `slot` of the line the reader last read (and did not return null for) is a
 * string (`slot` indexes `plan.fields`) with no escapes but `\" \\ \b \f \n \r \t`, each of which decodes to one
 * character that is neither a letter, a digit nor an apostrophe; its contents (between the quotes)
 * are then the bytes `[plan.starts[slot] + 1, plan.ends[slot] - 1)`, well-formed UTF-8, ASCII
 * unless `plan.highs[slot]` is set.
 */
export function isSimpleString(plan: FlatPlan, slot: number): boolean {
  const kind = plan.kinds[slot];
  return kind === Kind.plainString || kind === Kind.shortEscapedString;
}
