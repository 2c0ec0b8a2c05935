// Cron schedules as CronJobs read them: five fields (minute hour day-of-month month day-of-week), `*`, `?`, lists,
// ranges, steps, month and weekday names, the @yearly/@monthly/@weekly/@daily/@hourly descriptors and @every, with
// the parse errors of github.com/robfig/cron/v3 (ParseStandard), which kube-apiserver reports as
// `spec.schedule: Invalid value`. Times are evaluated in an IANA time zone through Node's Intl.

import { parseGoDuration } from '../../util/go-duration.js';

interface Bounds { min: number; max: number; names?: Record<string, number> }

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DAYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const FIELDS: Bounds[] = [
  { min: 0, max: 59 }, { min: 0, max: 23 }, { min: 1, max: 31 }, { min: 1, max: 12, names: MONTHS }, { min: 0, max: 6, names: DAYS },
];

export interface CronSchedule {
  /** Allowed values per field, as sets. */
  fields: Set<number>[];
  /** Day-of-month / day-of-week started with `*` or `?` (then both must match, else either). */
  domStar: boolean;
  dowStar: boolean;
  /** @every: a fixed period in ms instead of fields. */
  everyMs?: number;
  /** CRON_TZ= / TZ= prefix of the schedule. */
  timeZone?: string;
}

export class CronParseError extends Error {}

function parseInt10(s: string, b: Bounds): number {
  const named = b.names?.[s.toLowerCase()];
  if (named !== undefined) return named;
  if (!/^[+-]?\d+$/.test(s)) throw new CronParseError(`failed to parse int from ${s}: strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = Number(s);
  if (n < 0) throw new CronParseError(`negative number (${n}) not allowed: ${s}`);
  return n;
}

/** robfig getRange: one comma-separated part of a field. Returns whether it started with a star. */
function parseRange(expr: string, b: Bounds, into: Set<number>): boolean {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0].split('-');
  const singleDigit = lowAndHigh.length === 1;
  let start: number, end: number, star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = b.min; end = b.max; star = true;
  } else {
    start = parseInt10(lowAndHigh[0], b);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseInt10(lowAndHigh[1], b);
    else throw new CronParseError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = parseInt10(rangeAndStep[1], b);
    if (singleDigit && !star) end = b.max;
    if (step > 1) star = false;
  } else if (rangeAndStep.length > 2) {
    throw new CronParseError(`too many slashes: ${expr}`);
  }
  if (start < b.min) throw new CronParseError(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new CronParseError(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end) throw new CronParseError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronParseError(`step of range should be a positive number: ${expr}`);
  for (let v = start; v <= end; v += step) into.add(v);
  return star;
}

function parseField(text: string, b: Bounds): { set: Set<number>; star: boolean } {
  const set = new Set<number>();
  let star = false;
  for (const part of text.split(',')) star = parseRange(part, b, set) || star;
  return { set, star };
}

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *', '@annually': '0 0 1 1 *', '@monthly': '0 0 1 * *', '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *', '@midnight': '0 0 * * *', '@hourly': '0 * * * *',
};

/** The span of `@every <duration>`, with robfig/cron's message around Go's when it does not parse. */
function parseEvery(s: string): number {
  try {
    return parseGoDuration(s);
  } catch (err) {
    throw new CronParseError(`failed to parse duration @every ${s}: ${(err as Error).message}`);
  }
}

/** ParseStandard. Throws CronParseError with robfig's message. */
export function parseCron(spec: string): CronSchedule {
  let text = spec.trim();
  let timeZone: string | undefined;
  if (text.startsWith('TZ=') || text.startsWith('CRON_TZ=')) {
    const i = text.indexOf(' ');
    timeZone = text.slice(text.indexOf('=') + 1, i < 0 ? undefined : i);
    if (!isValidTimeZone(timeZone)) throw new CronParseError(`provided bad location ${timeZone}: unknown time zone ${timeZone}`);
    text = i < 0 ? '' : text.slice(i).trim();
  }
  if (text.startsWith('@')) {
    if (text.startsWith('@every ')) return { fields: [], domStar: true, dowStar: true, everyMs: Math.max(1000, parseEvery(text.slice(7).trim())), timeZone };
    const d = DESCRIPTORS[text];
    if (!d) throw new CronParseError(`unrecognized descriptor: ${text}`);
    text = d;
  }
  const parts = text.split(/\s+/).filter(Boolean);
  if (parts.length !== 5) throw new CronParseError(`expected exactly 5 fields, found ${parts.length}: [${parts.join(' ')}]`);
  const parsed = parts.map((p, i) => parseField(p, FIELDS[i]));
  return { fields: parsed.map((p) => p.set), domStar: parsed[2].star, dowStar: parsed[4].star, timeZone };
}

/** time.LoadLocation, via Intl: "Local" and "" are not explicit zones. */
export function isValidTimeZone(tz: string): boolean {
  if (!tz || tz.toLowerCase() === 'local') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

interface Local { month: number; day: number; dow: number; hour: number; minute: number }

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAY: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

function localFields(ms: number, tz: string | undefined): Local {
  if (!tz || tz === 'UTC' || tz === 'Etc/UTC') {
    const d = new Date(ms);
    return { month: d.getUTCMonth() + 1, day: d.getUTCDate(), dow: d.getUTCDay(), hour: d.getUTCHours(), minute: d.getUTCMinutes() };
  }
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', month: 'numeric', day: 'numeric', weekday: 'short', hour: 'numeric', minute: 'numeric' });
    formatters.set(tz, f);
  }
  const p: Record<string, string> = {};
  for (const x of f.formatToParts(new Date(ms))) p[x.type] = x.value;
  return { month: Number(p.month), day: Number(p.day), dow: WEEKDAY[p.weekday] ?? 0, hour: Number(p.hour) % 24, minute: Number(p.minute) };
}

const MINUTE = 60_000;

/** The first activation strictly after `afterMs` (robfig SpecSchedule.Next), or undefined within five years. */
export function nextActivation(s: CronSchedule, afterMs: number, timeZone?: string): number | undefined {
  if (s.everyMs) return Math.floor(afterMs / 1000) * 1000 + s.everyMs;
  const tz = s.timeZone ?? timeZone;
  let t = Math.floor(afterMs / MINUTE) * MINUTE + MINUTE;
  const limit = afterMs + 5 * 366 * 24 * 60 * MINUTE;
  const [mins, hours, doms, months, dows] = s.fields;
  while (t <= limit) {
    const l = localFields(t, tz);
    if (!months.has(l.month)) { t += (24 * 60 - l.hour * 60 - l.minute) * MINUTE; continue; }
    const domOk = doms.has(l.day), dowOk = dows.has(l.dow);
    const dayOk = s.domStar || s.dowStar ? domOk && dowOk : domOk || dowOk;
    if (!dayOk) { t += (24 * 60 - l.hour * 60 - l.minute) * MINUTE; continue; }
    if (!hours.has(l.hour)) { t += (60 - l.minute) * MINUTE; continue; }
    if (!mins.has(l.minute)) { t += MINUTE; continue; }
    return t;
  }
  return undefined;
}
