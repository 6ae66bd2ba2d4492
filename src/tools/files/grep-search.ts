/** What a Grep search asks for and returns, shared by the ripgrep and JavaScript engines. */

export type GrepOutputMode = "content" | "files_with_matches" | "count";

/** A search, already resolved: `path` is absolute and inside the workspace. */
export interface GrepQuery {
  pattern: string;
  path: string;
  glob?: string;
  type?: string;
  outputMode: GrepOutputMode;
  caseInsensitive: boolean;
  lineNumbers: boolean;
  before: number;
  after: number;
  multiline: boolean;
  signal: AbortSignal;
  /** The environment of a search process (ripgrep). Default: this process's, secrets removed. */
  env?: Readonly<Record<string, string>>;
}

/**
 * Lines in ripgrep's format: for `files_with_matches` one absolute path each; for `count` `path:N`; for
 * `content` `path:line:text` (context lines `path-line-text`, `--` between separate groups).
 */
export type GrepResult = { kind: "lines"; lines: string[] } | { kind: "error"; message: string };

/** File types Grep's `type` understands, as extensions (ripgrep's names for the common ones). */
export const GREP_FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  js: ["js", "jsx", "mjs", "cjs", "vue"],
  ts: ["ts", "tsx", "mts", "cts"],
  py: ["py", "pyi"],
  rust: ["rs"],
  go: ["go"],
  java: ["java", "jsp", "properties"],
  c: ["c", "h", "H"],
  cpp: ["cpp", "cc", "cxx", "c++", "hpp", "hh", "hxx", "h", "inl"],
  rb: ["rb", "gemspec"],
  php: ["php"],
  sh: ["sh", "bash", "zsh"],
  md: ["md", "markdown", "mdx", "mkd"],
  json: ["json"],
  yaml: ["yaml", "yml"],
  toml: ["toml"],
  html: ["html", "htm"],
  css: ["css", "scss"],
  kotlin: ["kt", "kts"],
  swift: ["swift"],
};
