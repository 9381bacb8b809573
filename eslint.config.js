// One lint gate for the whole repository: typescript-eslint's recommended rules (syntactic),
// with formatting left to Prettier (eslint-config-prettier turns the overlapping rules off).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/", "data/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" },
      ],
      // A timer assigned after the closures that clear it is read before it is assigned.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
    },
  },
);
