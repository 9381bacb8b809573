/**
 * compose.yaml as Docker Compose reads it (YAML merge keys `<<:` resolved), for the deploy
 * tests: no container runtime or compose runs here or in CI, so they check the file itself.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

/** A compose service, as far as the tests look at it. */
export interface ComposeService {
  profiles?: string[];
  image?: string;
  build?: unknown;
  env_file?: string | string[];
  environment?: Record<string, string>;
  secrets?: string[];
  volumes?: string[];
  ports?: string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string[]; [key: string]: unknown };
  [key: string]: unknown;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  secrets: Record<string, { file?: string }>;
  volumes: Record<string, unknown>;
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** compose.yaml's text. */
export const composeText = readFileSync(join(ROOT, "compose.yaml"), "utf8");

/** compose.yaml parsed, anchors and merge keys resolved. */
export const composeFile = parse(composeText, { merge: true }) as ComposeFile;

/** The services a plain `docker compose up` starts: those in no profile. */
export function defaultServices(): Record<string, ComposeService> {
  return Object.fromEntries(
    Object.entries(composeFile.services).filter(([, service]) => service.profiles === undefined),
  );
}

/** The services of one profile. */
export function profileServices(profile: string): Record<string, ComposeService> {
  return Object.fromEntries(
    Object.entries(composeFile.services).filter(([, service]) =>
      service.profiles?.includes(profile),
    ),
  );
}

/** The host files of the secrets `services` mount, in the order they are first mounted. */
export function secretFilesOf(services: Record<string, ComposeService>): string[] {
  const names = [...new Set(Object.values(services).flatMap((s) => s.secrets ?? []))];
  return names.map((name) => composeFile.secrets[name]?.file?.replace(/^\.\//, "") ?? "");
}

/** The container folders the named volumes of `services` mount (bind mounts left out). */
export function volumeTargetsOf(services: Record<string, ComposeService>): string[] {
  return Object.values(services)
    .flatMap((s) => s.volumes ?? [])
    .filter((volume) => /^[a-z-]+:\//.test(volume))
    .map((volume) => volume.split(":")[1] ?? "");
}
