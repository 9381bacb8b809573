// One lint gate for the whole repository: typescript-eslint's type-checked recommended rules
// plus no-unnecessary-condition, with formatting left to Prettier (eslint-config-prettier turns
// the overlapping rules off). Plain JavaScript files (this one, scripts/*.mjs) are in no tsconfig:
// they get the untyped rules only.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/", "data/"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  prettier,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" },
      ],
      // A timer assigned after the closures that clear it is read before it is assigned.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      "@typescript-eslint/no-unnecessary-condition": "error",
    },
  },
  {
    // The product's functions stay short enough to name and test (tests' describe blocks are
    // lists of cases, not functions to read as one).
    files: ["src/**/*.ts"],
    rules: {
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // vitest types its asymmetric matchers (expect.any, expect.stringContaining) as `any`.
    files: ["test/**/*.ts"],
    rules: { "@typescript-eslint/no-unsafe-assignment": "off" },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { console: "readonly", process: "readonly", URL: "readonly" } },
  },
);
