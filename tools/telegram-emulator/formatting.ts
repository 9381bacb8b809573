/**
 * Turning `parse_mode` text into what the person sees plus entities, as Telegram does. HTML is
 * parsed strictly, with Telegram's refusals for unsupported or unbalanced tags, because a bot that
 * forgets to escape a user's `<` breaks in production exactly like this. Markdown modes are only
 * stripped of their markers (no entities, no validation).
 */
import { badRequest } from "./errors.js";
import type { MessageEntity } from "./types.js";

/** Visible text and its entities. */
export interface FormattedText {
  text: string;
  entities: MessageEntity[];
}

const SIMPLE_TAGS: Record<string, string> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
  u: "underline",
  ins: "underline",
  s: "strikethrough",
  strike: "strikethrough",
  del: "strikethrough",
  "tg-spoiler": "spoiler",
  code: "code",
  pre: "pre",
  blockquote: "blockquote",
};

interface OpenTag {
  name: string;
  type: string | undefined;
  start: number;
  url?: string;
  language?: string;
}

function byteOffset(input: string, index: number): number {
  return Buffer.byteLength(input.slice(0, index), "utf8");
}

function cannotParse(reason: string): Error {
  return badRequest(`can't parse entities: ${reason}`);
}

function readAttributes(source: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  const pattern = /([a-zA-Z][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))/g;
  for (const match of source.matchAll(pattern)) {
    const name = match[1];
    if (name !== undefined) attributes[name.toLowerCase()] = match[2] ?? match[3] ?? match[4] ?? "";
  }
  return attributes;
}

function decodeEntity(input: string, index: number): { text: string; length: number } | undefined {
  const match = /^&(#\d+|#x[0-9a-fA-F]+|lt|gt|amp|quot);/.exec(input.slice(index, index + 12));
  if (match === null || match[1] === undefined) return undefined;
  const name = match[1];
  const named: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };
  let text = named[name];
  if (text === undefined) {
    const code = name.startsWith("#x") ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    text = String.fromCodePoint(code);
  }
  return { text, length: match[0].length };
}

function openTag(input: string, at: number, body: string, start: number): OpenTag {
  const name = (/^[^\s/]+/.exec(body)?.[0] ?? "").toLowerCase();
  const attributes = readAttributes(body.slice(name.length));
  if (name === "a") {
    const href = attributes.href;
    if (href === undefined || href === "") return { name, type: undefined, start };
    return { name, type: "text_link", start, url: href };
  }
  if (name === "span") {
    if (attributes.class !== "tg-spoiler") {
      throw cannotParse(
        `Tag "span" must have class "tg-spoiler" at byte offset ${byteOffset(input, at)}`,
      );
    }
    return { name, type: "spoiler", start };
  }
  if (name === "tg-emoji") return { name, type: undefined, start };
  const type = SIMPLE_TAGS[name];
  if (type === undefined) {
    throw cannotParse(`Unsupported start tag "${name}" at byte offset ${byteOffset(input, at)}`);
  }
  if (name === "blockquote" && "expandable" in attributes) {
    return { name, type: "expandable_blockquote", start };
  }
  if (name === "code" && attributes.class?.startsWith("language-")) {
    return { name, type, start, language: attributes.class.slice("language-".length) };
  }
  return { name, type, start };
}

/** Parses Telegram-flavoured HTML; throws Telegram's 400 "can't parse entities" on bad markup. */
function parseHtml(input: string): FormattedText {
  let text = "";
  const entities: MessageEntity[] = [];
  const stack: OpenTag[] = [];
  let index = 0;
  while (index < input.length) {
    const char = input[index];
    if (char === "&") {
      const decoded = decodeEntity(input, index);
      if (decoded !== undefined) {
        text += decoded.text;
        index += decoded.length;
        continue;
      }
    }
    if (char !== "<") {
      text += char;
      index += 1;
      continue;
    }
    const end = input.indexOf(">", index);
    if (end === -1)
      throw cannotParse(`Unclosed start tag at byte offset ${byteOffset(input, index)}`);
    const body = input.slice(index + 1, end).trim();
    if (body.startsWith("/")) {
      const name = body.slice(1).trim().toLowerCase();
      const open = stack.pop();
      if (open === undefined || open.name !== name) {
        throw cannotParse(
          `Unmatched end tag at byte offset ${byteOffset(input, index)}, expected "</${open?.name ?? ""}>", found "</${name}>"`,
        );
      }
      closeTag(open, text.length, entities, stack);
    } else {
      stack.push(openTag(input, index, body, text.length));
    }
    index = end + 1;
  }
  const unclosed = stack.pop();
  if (unclosed !== undefined) {
    throw cannotParse(`Can't find end tag corresponding to start tag "${unclosed.name}"`);
  }
  entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { text, entities };
}

function closeTag(open: OpenTag, end: number, entities: MessageEntity[], stack: OpenTag[]): void {
  const length = end - open.start;
  if (open.type === undefined || length === 0) return;
  // <pre><code class="language-x"> is one pre entity with a language, as Telegram reports it.
  const parent = stack[stack.length - 1];
  if (open.name === "code" && open.language !== undefined && parent?.name === "pre") {
    parent.language = open.language;
    return;
  }
  const entity: MessageEntity = { type: open.type, offset: open.start, length };
  if (open.url !== undefined) entity.url = open.url;
  if (open.name === "pre" && open.language !== undefined) entity.language = open.language;
  entities.push(entity);
}

/** Drops Markdown markers so the person sees plain text (best effort, no entities). */
function stripMarkdown(input: string): FormattedText {
  const withoutLinks = input.replace(/\[([^\]]*)\]\(([^)]*)\)/g, "$1");
  let text = "";
  for (let index = 0; index < withoutLinks.length; index += 1) {
    const char = withoutLinks[index];
    if (char === "\\" && index + 1 < withoutLinks.length) {
      index += 1;
      text += withoutLinks[index];
    } else if (char !== undefined && !"*_~`|".includes(char)) {
      text += char;
    }
  }
  return { text, entities: [] };
}

/** Applies a `parse_mode` (or none) to outgoing text. */
export function formatText(input: string, parseMode: string | undefined): FormattedText {
  if (parseMode === undefined || parseMode === "") return { text: input, entities: [] };
  const mode = parseMode.toLowerCase();
  if (mode === "html") return parseHtml(input);
  if (mode === "markdown" || mode === "markdownv2") return stripMarkdown(input);
  throw badRequest(`unsupported parse_mode`);
}
