/**
 * One name per thing (#36): every word of the glossary in docs/architecture.md is used in src/,
 * the words the code came to use without one are in it, and the names retired for them are
 * gone from src/'s identifiers and file names (read with the TypeScript scanner, so a comment
 * that says a lock is "held" counts for nothing).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The glossary's words, in its table's first column ("a / b" is two words for one thing). */
function glossaryWords(markdown: string): string[] {
  const section = markdown.slice(markdown.indexOf("## Glossary"));
  return section
    .split("\n")
    .filter((line) => line.startsWith("| ") && !/^\| (Word|-+) /.test(line))
    .flatMap((line) => (line.split("|")[1] ?? "").split(" / "))
    .map((word) => word.trim());
}

/** Whether `text` uses `word` as a phrase ("sender lease"), camelCase or kebab-case. */
function uses(text: string, word: string): boolean {
  const parts = word.toLowerCase().split(/\s+/);
  const lower = text.toLowerCase();
  return [parts.join(" "), parts.join(""), parts.join("-")].some((form) => lower.includes(form));
}

/** The words of an identifier: `UnrecordedPause` → unrecorded, pause; `#isRetryWait` too. */
function wordsOf(identifier: string): string[] {
  return identifier
    .replace(/^#/, "")
    .split(/_|(?<=[a-z0-9])(?=[A-Z])/)
    .map((word) => word.toLowerCase());
}

function identifiers(file: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true);
  scanner.setText(readFileSync(file, "utf8"));
  const found = new Set<string>();
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.Identifier || kind === ts.SyntaxKind.PrivateIdentifier) {
      found.add(scanner.getTokenText());
    }
  }
  return [...found];
}

/**
 * Names retired for a word of the glossary, and where: an identifier with one of `words` in it
 * (unless it is one of `except`), under `under`.
 */
interface Retired {
  words: string[];
  under: string;
  except: string[];
  instead: string;
}

const RETIRED: Retired[] = [
  // The plain verb stays (a lock or a lease is held, or not); a thing named "held" is unrecorded.
  {
    words: ["held"],
    under: "src",
    except: ["held", "withheld", "LeaseNotHeldError"],
    instead: "unrecorded",
  },
  { words: ["books"], under: "src", except: [], instead: "accounts" },
  // The ledger's gate keeps the word; who may buy is the access check.
  {
    words: ["gate"],
    under: "src",
    except: ["gate", "gated", "LEDGER_GATE_KEY"],
    instead: "access check",
  },
  // The quota's wait after a 429/503 and the slots a giveaway leaves to people.
  {
    words: ["hold", "headroom"],
    under: "src/service",
    except: [],
    instead: "retry wait, keptForPeople",
  },
];

function isRetired(rule: Retired, name: string): boolean {
  return !rule.except.includes(name) && wordsOf(name).some((word) => rule.words.includes(word));
}

function retiredNames(): string[] {
  return RETIRED.flatMap((rule) =>
    sourceFiles(rule.under).flatMap((file) => {
      const path = relative("src", file);
      const inPath = path.split(/[/.-]/).some((part) => rule.words.includes(part)) ? [path] : [];
      return [...inPath, ...identifiers(file).filter((name) => isRetired(rule, name))].map(
        (name) => `${file}: ${name} (say ${rule.instead})`,
      );
    }),
  );
}

describe("the glossary (docs/architecture.md)", () => {
  const words = glossaryWords(readFileSync("docs/architecture.md", "utf8"));
  const src = sourceFiles("src")
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");

  it("reads its words from the table", () => {
    expect(words).toEqual(
      expect.arrayContaining(["intent", "unconfirmed", "on hold", "init data"]),
    );
    expect(words.length).toBeGreaterThan(20);
  });

  it("names only what src/ uses", () => {
    expect(words.filter((word) => !uses(src, word))).toEqual([]);
  });

  it("has the words the code uses for its own things", () => {
    const needed = ["unrecorded", "evidence", "headroom", "standby", "gate", "accounts", "on hold"];
    expect(needed.filter((word) => !words.includes(word))).toEqual([]);
  });

  it("keeps the retired names out of src/'s identifiers and file names", () => {
    expect(retiredNames()).toEqual([]);
  });
});

describe("the retired names' check", () => {
  it("splits identifiers into their words", () => {
    expect(wordsOf("HeldPause")).toEqual(["held", "pause"]);
    expect(wordsOf("#heldCount")).toEqual(["held", "count"]);
    expect(wordsOf("QUOTA_DEFAULTS")).toEqual(["quota", "defaults"]);
  });

  it("would see an old name, and lets the plain verb be", () => {
    const [held, , gate] = RETIRED;
    const names = ["HeldPause", "heldForMs", "held", "withheld", "ExchangeWithheldError"];
    expect(names.filter((name) => held !== undefined && isRetired(held, name))).toEqual([
      "HeldPause",
      "heldForMs",
    ]);
    const gates = ["PurchaseGate", "createAccessGate", "gate", "gated", "aggregate"];
    expect(gates.filter((name) => gate !== undefined && isRetired(gate, name))).toEqual([
      "PurchaseGate",
      "createAccessGate",
    ]);
  });
});
