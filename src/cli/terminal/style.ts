/**
 * ANSI styling for a TTY; identity functions elsewhere (pipes, logs, NO_COLOR), so plain output never
 * carries escape codes.
 */

export interface Style {
  dim(text: string): string;
  bold(text: string): string;
  accent(text: string): string;
  success(text: string): string;
  warning(text: string): string;
  error(text: string): string;
}

const plain = (text: string): string => text;

/** No styling at all. */
export const PLAIN_STYLE: Style = {
  dim: plain,
  bold: plain,
  accent: plain,
  success: plain,
  warning: plain,
  error: plain,
};

function sgr(open: number, close: number): (text: string) => string {
  return (text) => `\x1b[${open}m${text}\x1b[${close}m`;
}

const COLOR_STYLE: Style = {
  dim: sgr(2, 22),
  bold: sgr(1, 22),
  accent: sgr(36, 39),
  success: sgr(32, 39),
  warning: sgr(33, 39),
  error: sgr(31, 39),
};

/** Colours when writing to a TTY and `NO_COLOR` is unset (https://no-color.org). */
export function createStyle(isTTY: boolean, env: NodeJS.ProcessEnv = process.env): Style {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== "";
  return isTTY && !noColor ? COLOR_STYLE : PLAIN_STYLE;
}
