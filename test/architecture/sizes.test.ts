/**
 * The sizes the guide sets for src/: no file over 500 lines and no class over 300, a class
 * counted from `class X` to its closing brace (read with the TypeScript compiler, so a brace in
 * a string or a comment counts for nothing).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const MAX_FILE_LINES = 500;
const MAX_CLASS_LINES = 300;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** Lines of a file, as an editor numbers them (a last line break ends the last line). */
function lineCount(text: string): number {
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** Each class in `text` with its length in lines, from `class` to its closing brace. */
function classLengths(file: string, text: string): { name: string; lines: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      const keyword = node.getChildren(source).find((c) => c.kind === ts.SyntaxKind.ClassKeyword);
      const from = source.getLineAndCharacterOfPosition(keyword?.getStart(source) ?? node.pos);
      const to = source.getLineAndCharacterOfPosition(node.getEnd());
      found.push({ name: node.name?.text ?? "(anonymous)", lines: to.line - from.line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function filesOver(dir: string, max: number): string[] {
  return sourceFiles(dir)
    .map((file) => ({ file, lines: lineCount(readFileSync(file, "utf8")) }))
    .filter(({ lines }) => lines > max)
    .map(({ file, lines }) => `${file}: ${String(lines)} lines`);
}

function classesOver(dir: string, max: number): string[] {
  return sourceFiles(dir).flatMap((file) =>
    classLengths(file, readFileSync(file, "utf8"))
      .filter(({ lines }) => lines > max)
      .map(({ name, lines }) => `${file}: class ${name}, ${String(lines)} lines`),
  );
}

describe("the sizes of src/", () => {
  it(`has no file over ${String(MAX_FILE_LINES)} lines`, () => {
    expect(filesOver("src", MAX_FILE_LINES)).toEqual([]);
  });

  it(`has no class over ${String(MAX_CLASS_LINES)} lines`, () => {
    expect(classesOver("src", MAX_CLASS_LINES)).toEqual([]);
  });

  it("counts a class from `class` to its closing brace, braces in strings and comments aside", () => {
    const text = [
      "/** A comment with a } brace. */",
      "export class Small {",
      '  readonly text = "}";',
      "  // }",
      "}",
      "const Named = class {",
      "  x = 1;",
      "};",
      "",
    ].join("\n");
    expect(classLengths("small.ts", text)).toEqual([
      { name: "Small", lines: 4 },
      { name: "(anonymous)", lines: 3 },
    ]);
    expect(lineCount(text)).toBe(8);
  });
});
