/**
 * compose.yaml's optional `postgres` profile, checked on the file (no Docker or compose here or
 * in CI): the default `docker compose up` still starts the one SQLite `bot` alone; the profile
 * has PostgreSQL with a health check, two bot replicas that wait for it to be healthy, both in
 * webhook mode with the database's URL and the webhook's secret from secret files, and a proxy
 * that publishes the webhook's port and spreads the posts over both. No secret is ever an
 * `environment:` value.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { configFields, SECRET_VARIABLES } from "../../src/config/schema.js";
import {
  type ComposeService,
  composeFile,
  composeText,
  defaultServices,
  profileServices,
} from "../helpers/compose.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const profile = profileServices("postgres");
/** The profile's bot replicas: the services that run the bot's image. */
const replicas = Object.entries(profile).filter(([, s]) => s.image === "giftbot:latest");

/** What `bot` was before the profile came: the default deployment must not move. */
const DEFAULT_BOT: ComposeService = {
  build: { context: ".", args: { NODE_IMAGE: "${NODE_IMAGE:-node:20-bookworm-slim}" } },
  image: "giftbot:latest",
  env_file: "deploy/bot.env",
  environment: {
    BOT_TOKEN_FILE: "/run/secrets/bot_token",
    WALLET_MNEMONIC_FILE: "/run/secrets/wallet_mnemonic",
    MARKETPLACE_COOKIE_FILE: "/run/secrets/marketplace_cookie",
  },
  secrets: ["bot_token", "wallet_mnemonic", "marketplace_cookie"],
  volumes: ["giftbot-data:/app/data", "giftbot-backups:/app/data/backups"],
  ports: ["127.0.0.1:8080:8080"],
  restart: "unless-stopped",
  stop_grace_period: "45s",
  healthcheck: {
    test: ["CMD", "node", "dist/src/run/probe.js", "/livez"],
    interval: "30s",
    timeout: "5s",
    start_period: "30s",
    retries: 3,
  },
};

/** `depends_on` as compose reads both forms: service name → condition. */
function dependencies(service: ComposeService): Record<string, string> {
  const raw = service.depends_on ?? {};
  if (Array.isArray(raw)) return Object.fromEntries(raw.map((name) => [name, "service_started"]));
  return Object.fromEntries(
    Object.entries(raw).map(([name, d]) => [name, d.condition ?? "service_started"]),
  );
}

/** A `/run/secrets/<name>` path's secret, which `service` must mount and compose must define. */
function secretBehind(path: string | undefined, service: ComposeService): string {
  const name = /^\/run\/secrets\/([a-z_]+)$/.exec(path ?? "")?.[1] ?? "";
  expect(service.secrets, path).toContain(name);
  expect(composeFile.secrets[name]?.file, name).toMatch(/^\.\/secrets\/[a-z_]+$/);
  return name;
}

describe("compose.yaml's postgres profile", () => {
  it("leaves the default `docker compose up` as it was: `bot` alone, on SQLite, by long polling", () => {
    expect(Object.keys(defaultServices())).toEqual(["bot"]);
    expect(composeFile.services.bot).toEqual(DEFAULT_BOT);
  });

  it("has PostgreSQL from the official image, its password from a secret file, a volume and a health check", () => {
    const postgres = profile.postgres;
    expect(postgres?.image).toMatch(/^postgres:15/);
    expect(postgres?.environment?.POSTGRES_PASSWORD).toBeUndefined();
    secretBehind(postgres?.environment?.POSTGRES_PASSWORD_FILE, postgres ?? {});
    const [volume = "", target] = postgres?.volumes?.[0]?.split(":") ?? [];
    expect(target).toBe("/var/lib/postgresql/data");
    expect(Object.keys(composeFile.volumes)).toContain(volume);
    expect(postgres?.healthcheck?.test?.slice(0, 2)).toEqual(["CMD", "pg_isready"]);
    // Reached on the compose network only: no port on the host.
    expect(postgres?.ports).toBeUndefined();
  });

  it("has two bot replicas that start once the database is healthy, in webhook mode, the database's URL from a secret file", () => {
    expect(replicas.map(([name]) => name)).toEqual(["bot-a", "bot-b"]);
    for (const [name, replica] of replicas) {
      const env = replica.environment ?? {};
      expect(dependencies(replica), name).toEqual({ postgres: "service_healthy" });
      expect(env.BOT_MODE, name).toBe("webhook");
      expect(env.WEBHOOK_URL, name).toMatch(/^https:\/\/\$\{WEBHOOK_DOMAIN:-[^}]+\}\/telegram$/);
      expect(secretBehind(env.DATABASE_URL_FILE, replica)).toBe("database_url");
      expect(secretBehind(env.WEBHOOK_SECRET_FILE, replica)).toBe("webhook_secret");
      // Each its own address, where the other replica hands it updates when it holds the lease.
      expect(env.REPLICA_URL, name).toBe(`http://${name}:${env.PORT}`);
      expect(replica.ports, name).toBeUndefined();
      expect(replica.env_file, name).toBe(DEFAULT_BOT.env_file);
    }
  });

  it("names only settings the bot knows, and each setting's value is accepted by the bot's schema", async () => {
    const fields = configFields as Record<string, { parseAsync(v: unknown): Promise<unknown> }>;
    for (const [name, replica] of replicas) {
      for (const [key, value] of Object.entries(replica.environment ?? {})) {
        const field = key.endsWith("_FILE") ? key.slice(0, -"_FILE".length) : key;
        expect(Object.keys(fields), `${name}: ${key}`).toContain(field);
        if (key.endsWith("_FILE")) continue;
        // Compose fills ${WEBHOOK_DOMAIN:-...} in; the bot sees a real host.
        const filled = value.replace(/\$\{WEBHOOK_DOMAIN:-[^}]+\}/, "bot.example.org");
        await expect(fields[field]?.parseAsync(filled), `${name}: ${key}`).resolves.toBeDefined();
      }
    }
  });

  it("never puts a secret in an `environment:` value, in any service", () => {
    const secretNames = new Set<string>([...SECRET_VARIABLES, "DATABASE_URL", "POSTGRES_PASSWORD"]);
    for (const [name, service] of Object.entries(composeFile.services)) {
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        expect(secretNames.has(key), `${name}: ${key} holds a secret itself`).toBe(false);
        if (key.endsWith("_FILE")) secretBehind(value, service);
        // No credentials inside a URL (user:password@host).
        expect(value, `${name}: ${key}`).not.toMatch(/:\/\/[^/\s@]+:[^/\s@]+@/);
      }
    }
  });

  it("has a proxy that publishes the webhook's port and spreads Telegram's posts over both replicas", () => {
    const proxy = profile.proxy;
    expect(proxy?.ports).toContain("443:443");
    expect(Object.keys(dependencies(proxy ?? {}))).toEqual(["bot-a", "bot-b"]);
    const mount = proxy?.volumes?.find((v) => v.endsWith(":/etc/caddy/Caddyfile:ro")) ?? "";
    const caddyfile = readFileSync(join(ROOT, mount.split(":")[0] ?? ""), "utf8");
    const upstreams = replicas.map(([name, r]) => `${name}:${r.environment?.PORT ?? ""}`);
    expect(caddyfile).toMatch(new RegExp(`reverse_proxy ${upstreams.join(" ")} \\{`));
    // The path the replicas serve (WEBHOOK_URL's) is the one the proxy lets through.
    expect(caddyfile).toMatch(/^\s+path \/telegram$/m);
    expect(caddyfile).toMatch(/^\{\$WEBHOOK_DOMAIN\} \{$/m);
    expect(proxy?.environment?.WEBHOOK_DOMAIN).toMatch(/^\$\{WEBHOOK_DOMAIN:-[^}]+\}$/);
  });

  it("says at the top how to start it: the profile's services by name, compose's variables from their own file", () => {
    const header = composeText.slice(0, composeText.indexOf("\nname: "));
    expect(header).toContain(
      `docker compose --env-file deploy/compose.env --profile postgres up -d --build ${Object.keys(profile).join(" ")}`,
    );
    // The bot's .env (npm start's) is not where compose's variables go.
    expect(header).toContain("WEBHOOK_DOMAIN=bot.example.org in deploy/compose.env");
    expect(composeText).not.toMatch(/in \.env|dot-env/);
  });
});
