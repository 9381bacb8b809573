/**
 * A TCP port free on 127.0.0.1 right now, for a server another process will open (the chosen
 * port can be taken meanwhile, as with any such choice; local tools and tests only).
 */
import { createServer } from "node:net";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
