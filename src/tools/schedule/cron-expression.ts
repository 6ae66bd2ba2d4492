/**
 * Standard 5-field cron ("M H DoM Mon DoW", local time), as CronCreate takes it (Claude Code 2.1.328's schema):
 * `*`, numbers, ranges `a-b`, steps `*\/n` and `a-b/n`, lists `a,b`, month and weekday names (`jan`, `mon`), and
 * 7 for Sunday. Day-of-month and day-of-week follow Vixie cron: when both are restricted, a day matching either
 * fires. No library: the grammar is small and a parser we own says exactly which field is wrong.
 */

export interface CronExpression {
  readonly source: string;
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly daysOfMonth: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  /** 0 (Sunday) to 6; a 7 in the expression is stored as 0. */
  readonly daysOfWeek: ReadonlySet<number>;
  /** Whether the day-of-month / day-of-week field was `*` (then only the other one decides the day). */
  readonly anyDayOfMonth: boolean;
  readonly anyDayOfWeek: boolean;
}

interface FieldRule {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const FIELDS: readonly FieldRule[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day-of-month", min: 1, max: 31 },
  {
    name: "month",
    min: 1,
    max: 12,
    names: ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"],
  },
  { name: "day-of-week", min: 0, max: 7, names: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] },
];

/** How far ahead a next fire time is looked for; an expression that never matches (Feb 30) ends the search. */
const SEARCH_YEARS = 5;

function parseValue(text: string, rule: FieldRule): number {
  const named = rule.names?.indexOf(text.toLowerCase()) ?? -1;
  // Month names count from 1, weekday names from 0.
  if (named >= 0) return rule.name === "month" ? named + 1 : named;
  if (!/^\d+$/.test(text)) throw new Error(`"${text}" is not a number in the ${rule.name} field`);
  const value = Number(text);
  if (value < rule.min || value > rule.max)
    throw new Error(`${value} is out of range ${rule.min}-${rule.max} in the ${rule.name} field`);
  return value;
}

function parseField(text: string, rule: FieldRule): Set<number> {
  const values = new Set<number>();
  for (const item of text.split(",")) {
    const [range = "", stepText, extra] = item.split("/");
    if (range === "" || extra !== undefined) throw new Error(`"${item}" is not a valid ${rule.name} item`);
    const step = stepText === undefined ? 1 : Number(stepText);
    if (stepText !== undefined && (!/^\d+$/.test(stepText) || step < 1))
      throw new Error(`"${stepText}" is not a valid step in the ${rule.name} field`);
    let low: number;
    let high: number;
    if (range === "*") {
      low = rule.min;
      high = rule.name === "day-of-week" ? 6 : rule.max;
    } else if (range.includes("-")) {
      const [from = "", to = "", more] = range.split("-");
      if (more !== undefined) throw new Error(`"${range}" is not a valid range in the ${rule.name} field`);
      low = parseValue(from, rule);
      high = parseValue(to, rule);
      if (low > high) throw new Error(`"${range}" runs backwards in the ${rule.name} field`);
    } else {
      low = parseValue(range, rule);
      // `5/15` means from 5 to the end in steps of 15, as in Vixie cron.
      high = stepText === undefined ? low : rule.max;
    }
    for (let value = low; value <= high; value += step) values.add(rule.name === "day-of-week" ? value % 7 : value);
  }
  return values;
}

/** Parses a 5-field expression; throws an Error whose message names the field that is wrong. */
export function parseCronExpression(source: string): CronExpression {
  const parts = source.trim().split(/\s+/);
  if (parts.length !== 5 || parts[0] === "")
    throw new Error(`a cron expression has 5 fields (minute hour day-of-month month day-of-week); got ${parts.length}`);
  const [minute = "", hour = "", dayOfMonth = "", month = "", dayOfWeek = ""] = parts;
  const rules = FIELDS as [FieldRule, FieldRule, FieldRule, FieldRule, FieldRule];
  return {
    source: parts.join(" "),
    minutes: parseField(minute, rules[0]),
    hours: parseField(hour, rules[1]),
    daysOfMonth: parseField(dayOfMonth, rules[2]),
    months: parseField(month, rules[3]),
    daysOfWeek: parseField(dayOfWeek, rules[4]),
    anyDayOfMonth: dayOfMonth === "*",
    anyDayOfWeek: dayOfWeek === "*",
  };
}

function dayMatches(expression: CronExpression, date: Date): boolean {
  const byMonth = expression.daysOfMonth.has(date.getDate());
  const byWeek = expression.daysOfWeek.has(date.getDay());
  if (expression.anyDayOfMonth) return byWeek;
  if (expression.anyDayOfWeek) return byMonth;
  return byMonth || byWeek;
}

/**
 * The first minute strictly after `after` (epoch ms) that the expression matches, in local time; undefined when
 * none comes within SEARCH_YEARS (an impossible date such as `0 0 30 2 *`).
 */
export function nextFireTime(expression: CronExpression, after: number): number | undefined {
  const date = new Date(after);
  date.setSeconds(0, 0);
  date.setMinutes(date.getMinutes() + 1);
  const limit = new Date(after);
  limit.setFullYear(limit.getFullYear() + SEARCH_YEARS);
  // Skips whole months, days and hours that cannot match, so the walk is a few thousand steps at most.
  while (date.getTime() <= limit.getTime()) {
    if (!expression.months.has(date.getMonth() + 1)) {
      date.setMonth(date.getMonth() + 1, 1);
      date.setHours(0, 0, 0, 0);
    } else if (!dayMatches(expression, date)) {
      date.setDate(date.getDate() + 1);
      date.setHours(0, 0, 0, 0);
    } else if (!expression.hours.has(date.getHours())) {
      date.setHours(date.getHours() + 1, 0, 0, 0);
    } else if (!expression.minutes.has(date.getMinutes())) {
      date.setMinutes(date.getMinutes() + 1, 0, 0);
    } else {
      return date.getTime();
    }
  }
  return undefined;
}
