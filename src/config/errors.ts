/**
 * Why the bot refuses to start. One error lists every problem at once, so an operator fixes
 * the whole `.env` in one go instead of one variable per restart.
 */

/** One bad or missing variable. `reason` never contains the variable's value. */
export interface ConfigProblem {
  variable: string;
  reason: string;
}

/**
 * Thrown (as a rejected promise) by `loadConfig`. Its message is the list, one line per
 * variable; it carries no stack worth printing and no secret value, so callers print
 * `message` and exit.
 */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[]) {
    super(formatProblems(problems));
    this.problems = problems;
  }
}

/** `- NAME: reason` lines, in the order given. */
function formatProblems(problems: readonly ConfigProblem[]): string {
  return problems.map((problem) => `- ${problem.variable}: ${problem.reason}`).join("\n");
}
