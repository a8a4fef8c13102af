/**
 * Exact integers from JSON number literals. JSON.parse turns 9223372036854775807 into
 * 9223372036854775808 and 1.0000000000000000001 into 1, so int64 ids are read from the literal
 * text (lossless-json keeps it) and judged as JSON Schema does: a number is an integer when its
 * value has no fractional part, whatever its spelling (`1.0` and `1e3` are integers).
 */

const literal = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** Beyond this exponent a non-zero literal is far outside any range this module is asked about. */
const MAX_EXPONENT = 400;

/** The integer a JSON number literal denotes; null when it has a fractional part or is not a number literal. */
export function integerOfLiteral(text: string): bigint | null {
  const m = literal.exec(text);
  if (m === null) return null;
  const [, sign, whole, fraction = '', exponent = '0'] = m;
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return 0n;
  let exp = Number(exponent) - fraction.length;
  while (exp < 0 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    exp++;
  }
  if (exp < 0) return null;
  // Caps the BigInt built from absurd exponents (1e999999999) without changing which side of any
  // int64 bound the value falls.
  if (exp > MAX_EXPONENT) exp = MAX_EXPONENT;
  const value = BigInt(digits) * 10n ** BigInt(exp);
  return sign === '-' ? -value : value;
}

/** The int64 range, as OpenAPI's `format: int64` means it. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
