/**
 * The window is worked out in one place (issue 43; docs/CONTEXT-BUDGET.md): `compaction/budget/context-budget.ts`
 * reads the model table's `contextWindow` and answers everyone else, with the learned window and the
 * calibration applied. Two halves, each checkable without running anything:
 * - the compiler: the owner's answer has a type of its own (`BudgetLimits`), and every function that budgets
 *   takes that type, so a plain `ModelLimits` (a row of the model table) cannot be handed to them (`tsc`);
 * - this test: no file but the owner reads `contextWindow` off the model table. Parsed with TypeScript's own
 *   parser, a read counts when its receiver is a `modelLimits(…)` call or `UNKNOWN_MODEL_LIMITS`, or a name
 *   whose declaration (found by walking out through the enclosing scopes) is initialised so or annotated
 *   `ModelLimits` / `Partial<ModelLimits>`; property reads, element reads and destructuring all count.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");
const OWNER = join("compaction", "budget", "context-budget.ts");
const FIELD = "contextWindow";

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The expression under parentheses, `as`, `!`, `satisfies`. */
function bare(node: ts.Expression): ts.Expression {
  let current = node;
  while (
    ts.isParenthesizedExpression(current) ||
    ts.isAsExpression(current) ||
    ts.isNonNullExpression(current) ||
    ts.isSatisfiesExpression(current)
  )
    current = current.expression;
  return current;
}

/** A row of the model table itself: `modelLimits(…)`, `UNKNOWN_MODEL_LIMITS`, or one of them after `??`/`||`/`?:`. */
function isTableRow(node: ts.Expression): boolean {
  const expression = bare(node);
  if (ts.isCallExpression(expression)) {
    const callee = bare(expression.expression);
    return ts.isIdentifier(callee) && callee.text === "modelLimits";
  }
  if (ts.isIdentifier(expression)) return expression.text === "UNKNOWN_MODEL_LIMITS";
  if (ts.isBinaryExpression(expression)) return isTableRow(expression.left) || isTableRow(expression.right);
  if (ts.isConditionalExpression(expression))
    return isTableRow(expression.whenTrue) || isTableRow(expression.whenFalse);
  return false;
}

/** A type annotation naming the model table's row: `ModelLimits`, `Partial<ModelLimits>`, `Readonly<…>`. */
function isTableType(type: ts.TypeNode | undefined): boolean {
  if (type === undefined || !ts.isTypeReferenceNode(type)) return false;
  const name = type.typeName.getText();
  if (name === "ModelLimits") return true;
  return (name === "Partial" || name === "Readonly") && isTableType(type.typeArguments?.[0]);
}

/** Declarations of `name` directly in `scope` (its parameters, or the variable statements of its body). */
function declaredIn(scope: ts.Node, name: string): ts.VariableDeclaration | ts.ParameterDeclaration | undefined {
  if (ts.isFunctionLike(scope))
    for (const parameter of scope.parameters)
      if (ts.isIdentifier(parameter.name) && parameter.name.text === name) return parameter;
  const statements = ts.isBlock(scope) || ts.isSourceFile(scope) ? scope.statements : undefined;
  for (const statement of statements ?? []) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations)
      if (ts.isIdentifier(declaration.name) && declaration.name.text === name) return declaration;
  }
  return undefined;
}

/** Whether `identifier` names a row of the model table where it is used (its nearest declaration says so). */
function namesTableRow(identifier: ts.Identifier): boolean {
  for (let scope: ts.Node | undefined = identifier.parent; scope !== undefined; scope = scope.parent) {
    const declaration = declaredIn(scope, identifier.text);
    if (declaration === undefined) continue;
    if (isTableType(declaration.type)) return true;
    return declaration.initializer !== undefined && isTableRow(declaration.initializer);
  }
  return false;
}

/** A receiver that is the model table's row: the row itself, or a name bound to it. */
function isTableReceiver(node: ts.Expression): boolean {
  const expression = bare(node);
  return isTableRow(expression) || (ts.isIdentifier(expression) && namesTableRow(expression));
}

/** Reads of the model table's window in one file's text, as "line: text" (1-based lines). */
function tableWindowReads(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const reads: string[] = [];
  const note = (node: ts.Node) =>
    reads.push(`${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText().slice(0, 80)}`);
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && node.name.text === FIELD && isTableReceiver(node.expression)) note(node);
    if (
      ts.isElementAccessExpression(node) &&
      ts.isStringLiteral(node.argumentExpression) &&
      node.argumentExpression.text === FIELD &&
      isTableReceiver(node.expression)
    )
      note(node);
    if (ts.isObjectBindingPattern(node)) {
      const holder = node.parent;
      const fromTable =
        (ts.isVariableDeclaration(holder) && holder.initializer !== undefined && isTableReceiver(holder.initializer)) ||
        (ts.isParameter(holder) && isTableType(holder.type));
      const takesWindow = node.elements.some((element) => (element.propertyName ?? element.name).getText() === FIELD);
      if (fromTable && takesWindow) note(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return reads;
}

describe("the window is worked out in one place", () => {
  it("the rule finds every way of reading the table's window, and nothing the owner answered", () => {
    const flagged = [
      "const limits = modelLimits(model);\nexport const w = limits.contextWindow;",
      "export const w = modelLimits(model, overrides).contextWindow;",
      'export const w = (modelLimits(model) as ModelLimits)["contextWindow"];',
      "export function f(limits: ModelLimits) {\n  return limits.contextWindow;\n}",
      "export function f(overrides: Partial<ModelLimits>) {\n  return overrides.contextWindow;\n}",
      "const { contextWindow } = modelLimits(model);",
      "export function f({ contextWindow }: ModelLimits) {\n  return contextWindow;\n}",
      "const w = budget?.serverWindow(model) ?? modelLimits(model).contextWindow;",
      "const limits = budget ? budget.limits(model) : UNKNOWN_MODEL_LIMITS;\nconst w = limits.contextWindow;",
    ];
    for (const text of flagged) expect(tableWindowReads("x.ts", text), text).toHaveLength(1);
    const allowed = [
      "export function f(limits: BudgetLimits) {\n  return limits.contextWindow;\n}",
      "const limits = budgetLimits(model, overrides, budget);\nconst w = limits.contextWindow;",
      "export const p = modelLimits(model).inputPricePerMTok;",
      "export function f(input: CompactionInput) {\n  return input.contextWindow;\n}",
      // The nearest declaration decides: an outer table row does not taint an inner budget of the same name.
      "const limits = modelLimits(model);\nexport function f(limits: BudgetLimits) {\n  return limits.contextWindow;\n}",
    ];
    for (const text of allowed) expect(tableWindowReads("x.ts", text), text).toEqual([]);
  });

  // Guards: the window has one owner; a consumer that takes the table's window itself (as forked-agent.ts,
  // session-compaction.ts and cli/context-report.ts once did) is named here. Mutation caught:
  // scripts/mutation-check.mjs "window-read-off-the-table" (forked-agent.ts's fallback to the table's window).
  it("no file but compaction/budget/context-budget.ts reads contextWindow off the model table", () => {
    const reads = sourceFiles(SRC).flatMap((path) =>
      tableWindowReads(path, readFileSync(path, "utf8")).map((read) => `${relative(SRC, path)}:${read}`),
    );
    // The rule sees the owner's own reads, which it exempts.
    expect(reads.filter((read) => read.startsWith(`${OWNER}:`)).length).toBeGreaterThan(0);
    expect(reads.filter((read) => !read.startsWith(`${OWNER}:`))).toEqual([]);
  });
});
