// Weekly greenhouse report: per-sensor statistics from an hourly CSV export, optionally compared with the
// previous week's export.
//
//   node src/report.js data/readings.csv                            this week
//   node src/report.js data/readings.csv data/readings-previous.csv this week against last week
//
// The export has one reading per sensor per hour: `timestamp,sensor,celsius`.
import { readFileSync } from "node:fs";
import { mean, median } from "./stats.js";

const HEADER = "timestamp,sensor,celsius";
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const INTERVAL_MS = 60 * 60 * 1000;

/** Parses an export into `{ timestamp, sensor, celsius }` rows; throws on the first malformed line. */
export function parseReadings(text, source = "input") {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  if (lines[0] !== HEADER) throw new Error(`${source}: expected the header "${HEADER}", got "${lines[0]}"`);
  return lines.slice(1).map((line, index) => {
    const [timestamp, sensor, celsius, extra] = line.split(",");
    const where = `${source}:${index + 2}`;
    if (extra !== undefined) throw new Error(`${where}: too many columns`);
    if (!TIMESTAMP.test(timestamp ?? "")) throw new Error(`${where}: bad timestamp "${timestamp}"`);
    if (!sensor) throw new Error(`${where}: missing sensor name`);
    const value = Number(celsius);
    if (celsius === undefined || celsius === "" || !Number.isFinite(value))
      throw new Error(`${where}: bad reading "${celsius}"`);
    return { timestamp, sensor, celsius: value };
  });
}

/** Groups readings by sensor, keeping the order in which sensors first appear. */
export function bySensor(readings) {
  const groups = new Map();
  for (const reading of readings) {
    if (!groups.has(reading.sensor)) groups.set(reading.sensor, []);
    groups.get(reading.sensor).push(reading.celsius);
  }
  return groups;
}

/** Count, mean, median, minimum and maximum of one sensor's readings. */
export function sensorStats(values) {
  return {
    count: values.length,
    mean: mean(values),
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}

/** Readings missing from a sensor's hourly series (a gap means the sensor was offline). */
export function missingReadings(readings, sensor) {
  const times = readings
    .filter((reading) => reading.sensor === sensor)
    .map((reading) => Date.parse(`${reading.timestamp}Z`));
  let missing = 0;
  for (let index = 1; index < times.length; index++)
    missing += Math.max(0, Math.round((times[index] - times[index - 1]) / INTERVAL_MS) - 1);
  return missing;
}

/** The report rows: one per sensor, with the change in median against `previous` when given. */
export function reportRows(current, previous) {
  const before = previous ? bySensor(previous) : new Map();
  return [...bySensor(current)].map(([sensor, values]) => {
    const stats = sensorStats(values);
    const last = before.get(sensor);
    return {
      sensor,
      ...stats,
      gaps: missingReadings(current, sensor),
      change: last ? stats.median - median(last) : undefined,
    };
  });
}

function fixed(value) {
  return value === undefined ? "" : value.toFixed(1);
}

function signed(value) {
  if (value === undefined) return "";
  const text = value.toFixed(1);
  return value > 0 ? `+${text}` : text;
}

/** Formats rows as an aligned plain-text table. */
export function formatTable(rows, comparing) {
  const columns = ["sensor", "readings", "mean", "median", "min", "max", "gaps"];
  if (comparing) columns.push("median Δ");
  const body = rows.map((row) => {
    const cells = [row.sensor, String(row.count), fixed(row.mean), fixed(row.median), fixed(row.min), fixed(row.max), String(row.gaps)];
    if (comparing) cells.push(signed(row.change));
    return cells;
  });
  const widths = columns.map((column, index) => Math.max(column.length, ...body.map((cells) => cells[index].length)));
  const line = (cells) => cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]) : cell.padStart(widths[index]))).join("  ");
  return [line(columns), line(widths.map((width) => "-".repeat(width))), ...body.map(line)].join("\n");
}

/** Reads the export(s) named on the command line and prints the report. */
export function main(argv) {
  const [currentPath, previousPath] = argv;
  if (!currentPath) {
    console.error("usage: node src/report.js <readings.csv> [previous.csv]");
    return 2;
  }
  const current = parseReadings(readFileSync(currentPath, "utf8"), currentPath);
  const previous = previousPath ? parseReadings(readFileSync(previousPath, "utf8"), previousPath) : undefined;
  const first = current[0]?.timestamp.slice(0, 10);
  const last = current.at(-1)?.timestamp.slice(0, 10);
  console.log(`Greenhouse report ${first} to ${last} (${current.length} readings)`);
  console.log(formatTable(reportRows(current, previous), previous !== undefined));
  return 0;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  process.exitCode = main(process.argv.slice(2));
}
