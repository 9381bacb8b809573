import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    // Above every wait inside a test (the end-to-end tests wait up to 30 s for one log line),
    // so a test that fails says what it waited for instead of a bare "timed out".
    testTimeout: 60_000,
    hookTimeout: 20_000,
    // Tests open real sockets and SQLite files; two workers match the 2-core CI machine.
    maxWorkers: 2,
    // Fails the run when a test left a process running or a temporary file behind.
    globalSetup: ["test/global-setup.ts"],
  },
});
