/**
 * Strict ISO-8601 date and date-time parsing to epoch milliseconds (UTC), written as char-code
 * scans: `Date.parse` accepts many non-ISO forms and reads zone-less date-times in the local time
 * zone, which would make an index depend on the machine that built it.
 */

const msPerDay = 86_400_000;
const minute = 60_000;

/**
 * Parses `YYYY-MM-DD` (a real calendar day, years 0000-9999) to epoch milliseconds at UTC
 * midnight; NaN when the string is not exactly that.
 */
export function parseIsoDate(s: string): number {
  return s.length === 10 ? dateAt(s) : Number.NaN;
}

/**
 * Parses an ISO-8601 date-time to epoch milliseconds: `YYYY-MM-DD`, then optionally `T` (or a
 * space) and `HH:MM`, `HH:MM:SS` or `HH:MM:SS.fff…` (digits past milliseconds are truncated), then
 * optionally `Z` or an offset `±HH:MM`, `±HHMM`, `±HH`. No zone means UTC; a bare date means
 * midnight UTC. NaN when the string does not match or names an impossible day or time.
 */
export function parseIsoDateTime(s: string): number {
  const day = dateAt(s);
  const n = s.length;
  if (Number.isNaN(day) || n === 10) return day;
  const sep = s.charCodeAt(10);
  // 'T', 't' or ' '
  if (sep !== 84 && sep !== 116 && sep !== 32) return Number.NaN;
  const hh = twoDigits(s, 11);
  const mm = twoDigits(s, 14);
  if (hh < 0 || hh > 23 || s.charCodeAt(13) !== 58 || mm < 0 || mm > 59) return Number.NaN;
  let ms = hh * 3_600_000 + mm * minute;
  let i = 16;
  if (i < n && s.charCodeAt(i) === 58) {
    const ss = twoDigits(s, i + 1);
    if (ss < 0 || ss > 59) return Number.NaN;
    ms += ss * 1000;
    i += 3;
    if (i < n && (s.charCodeAt(i) === 46 || s.charCodeAt(i) === 44)) {
      i++;
      const start = i;
      let fraction = 0;
      let scale = 100;
      for (; i < n; i++) {
        const digit = s.charCodeAt(i) - 48;
        if (digit < 0 || digit > 9) break;
        fraction += digit * scale;
        scale /= 10;
      }
      if (i === start) return Number.NaN;
      ms += Math.floor(fraction);
    }
  }
  if (i === n) return day + ms;
  const zone = s.charCodeAt(i);
  // 'Z' or 'z'
  if (zone === 90 || zone === 122) return i + 1 === n ? day + ms : Number.NaN;
  // '+' or '-'
  if (zone !== 43 && zone !== 45) return Number.NaN;
  const oh = twoDigits(s, i + 1);
  let om = 0;
  const rest = n - (i + 3);
  if (rest === 3 && s.charCodeAt(i + 3) === 58) om = twoDigits(s, i + 4);
  else if (rest === 2) om = twoDigits(s, i + 3);
  else if (rest !== 0) return Number.NaN;
  if (oh < 0 || oh > 23 || om < 0 || om > 59) return Number.NaN;
  const offset = (oh * 60 + om) * minute;
  return day + ms - (zone === 43 ? offset : -offset);
}

/** Epoch ms of the `YYYY-MM-DD` at the start of `s`, or NaN. */
function dateAt(s: string): number {
  if (s.length < 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return Number.NaN;
  const hi = twoDigits(s, 0);
  const lo = twoDigits(s, 2);
  const month = twoDigits(s, 5);
  const day = twoDigits(s, 8);
  if (hi < 0 || lo < 0 || month < 1 || month > 12 || day < 1) return Number.NaN;
  const year = hi * 100 + lo;
  if (day > daysInMonth(year, month)) return Number.NaN;
  return daysFromCivil(year, month, day) * msPerDay;
}

function twoDigits(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  // charCodeAt past the end is NaN, which fails these comparisons too.
  if (!(a >= 0 && a <= 9 && b >= 0 && b <= 9)) return -1;
  return a * 10 + b;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}
