import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    // A file whose waits are longer sets its own (test/e2e/observability.test.ts).
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Tests open real sockets and SQLite files; two workers match the 2-core CI machine.
    maxWorkers: 2,
    // Fails the run when a test left a process running or a temporary file behind.
    globalSetup: ["test/global-setup.ts"],
  },
});
