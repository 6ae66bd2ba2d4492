/**
 * The 5-field cron parser behind CronCreate: next fire times against literal local dates, a fast-check property
 * that the next fire time has exactly the fields the expression lists (its own oracle: the generated numbers,
 * and a minute-by-minute walk that finds no earlier match), and one precise line for each kind of bad input.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nextFireTime, parseCronExpression } from "../../src/tools/schedule/cron-expression.js";

/** Local time, as cron reads it: months counted from 1 here for legibility. */
function local(year: number, month: number, day: number, hour: number, minute: number, second = 0): number {
  return new Date(year, month - 1, day, hour, minute, second).getTime();
}

function next(expression: string, after: number): number | undefined {
  return nextFireTime(parseCronExpression(expression), after);
}

describe("next fire time", () => {
  // 2026-03-04 is a Wednesday.
  const wednesday = local(2026, 3, 4, 10, 3, 20);

  it("steps, plain minutes and pinned dates", () => {
    expect(next("*/5 * * * *", wednesday)).toBe(local(2026, 3, 4, 10, 5));
    expect(next("5/20 * * * *", wednesday)).toBe(local(2026, 3, 4, 10, 5));
    expect(next("5/20 * * * *", local(2026, 3, 4, 10, 6))).toBe(local(2026, 3, 4, 10, 25));
    expect(next("30 14 28 2 *", wednesday)).toBe(local(2027, 2, 28, 14, 30));
    expect(next("0 0 29 2 *", wednesday)).toBe(local(2028, 2, 29, 0, 0));
  });

  // Mutation caught (cron-not-strictly-after): a time that matches `after` itself is not the next one.
  it("is strictly after the given time", () => {
    expect(next("7 * * * *", local(2026, 3, 4, 10, 7))).toBe(local(2026, 3, 4, 11, 7));
    expect(next("7 * * * *", local(2026, 3, 4, 10, 6, 59))).toBe(local(2026, 3, 4, 10, 7));
  });

  // Mutation caught (cron-sunday-seven): 7 is Sunday, as 0 is.
  it("weekdays: ranges, names, and 7 for Sunday", () => {
    expect(next("0 9 * * 1-5", local(2026, 3, 6, 10, 0))).toBe(local(2026, 3, 9, 9, 0));
    expect(next("15 10 * jan-mar sun", wednesday)).toBe(local(2026, 3, 8, 10, 15));
    expect(next("0 12 * * 7", wednesday)).toBe(local(2026, 3, 8, 12, 0));
    expect(next("0 12 * * 0", wednesday)).toBe(local(2026, 3, 8, 12, 0));
  });

  // Mutation caught (cron-day-and): with both day fields restricted, either one matching fires (Vixie cron).
  it("day-of-month and day-of-week both restricted: either matches", () => {
    expect(next("0 0 1,15 * mon", wednesday)).toBe(local(2026, 3, 9, 0, 0));
    expect(next("0 0 5 * mon", wednesday)).toBe(local(2026, 3, 5, 0, 0));
  });

  it("an impossible date has no next time", () => {
    expect(next("0 0 30 2 *", wednesday)).toBeUndefined();
  });
});

describe("bad expressions are one line naming the field", () => {
  for (const [expression, message] of [
    ["* * *", "a cron expression has 5 fields (minute hour day-of-month month day-of-week); got 3"],
    ["61 * * * *", "61 is out of range 0-59 in the minute field"],
    ["* 24 * * *", "24 is out of range 0-23 in the hour field"],
    ["*/0 * * * *", '"0" is not a valid step in the minute field'],
    ["* * * foo *", '"foo" is not a number in the month field'],
    ["* * 9-3 * *", '"9-3" runs backwards in the day-of-month field'],
  ] as const) {
    it(expression, () => {
      expect(() => parseCronExpression(expression)).toThrow(new Error(message));
    });
  }
});

describe("property: the next fire time has the listed fields and nothing earlier matches", () => {
  const values = (min: number, max: number) => fc.uniqueArray(fc.integer({ min, max }), { minLength: 1, maxLength: 4 });
  it("holds for generated expressions and times", () => {
    fc.assert(
      fc.property(
        values(0, 59),
        values(0, 23),
        fc.option(values(1, 28), { nil: undefined }),
        fc.option(values(0, 6), { nil: undefined }),
        fc.integer({ min: local(2026, 1, 1, 0, 0), max: local(2027, 12, 31, 23, 59) }),
        (minutes, hours, days, weekdays, after) => {
          const field = (list: number[] | undefined) => (list === undefined ? "*" : list.join(","));
          const expression = `${field(minutes)} ${field(hours)} ${field(days)} * ${field(weekdays)}`;
          const matches = (time: number) => {
            const date = new Date(time);
            const day =
              days === undefined && weekdays === undefined
                ? true
                : days === undefined
                  ? weekdays?.includes(date.getDay()) === true
                  : weekdays === undefined
                    ? days.includes(date.getDate())
                    : days.includes(date.getDate()) || weekdays.includes(date.getDay());
            return minutes.includes(date.getMinutes()) && hours.includes(date.getHours()) && day;
          };
          const found = next(expression, after);
          expect(found).toBeDefined();
          const time = found ?? 0;
          expect(time).toBeGreaterThan(after);
          expect(new Date(time).getSeconds()).toBe(0);
          expect(matches(time)).toBe(true);
          // No earlier whole minute after `after` matches.
          const first = new Date(after);
          first.setSeconds(0, 0);
          for (let minute = first.getTime() + 60_000; minute < time; minute += 60_000)
            if (matches(minute)) expect.fail(`${expression}: ${new Date(minute)} matches before ${new Date(time)}`);
        },
      ),
      { numRuns: 60 },
    );
  });
});
