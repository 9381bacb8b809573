/**
 * A multipart/form-data body as grammY uploads a file (`sendDocument`): its text fields and
 * its files, read with busboy. grammY writes part headers without a space after the colon and
 * filenames unquoted, which the Fetch API's stricter `formData()` refuses. Shared by the
 * emulator and the tests' recording Telegram fake.
 */
import busboy from "busboy";

interface MultipartFile {
  fileName: string;
  content: Buffer;
}

export interface Multipart {
  fields: Record<string, string>;
  files: Record<string, MultipartFile>;
}

/** Reads `raw`; rejects (with a short reason) when it is not a well-formed multipart body. */
export function readMultipart(raw: Buffer, contentType: string): Promise<Multipart> {
  return new Promise((resolve, reject) => {
    const parts: Multipart = { fields: {}, files: {} };
    const parser = busboy({ headers: { "content-type": contentType } });
    parser.on("field", (name, value) => {
      parts.fields[name] = value;
    });
    parser.on("file", (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        parts.files[name] = { fileName: info.filename ?? name, content: Buffer.concat(chunks) };
      });
    });
    parser.on("close", () => resolve(parts));
    parser.on("error", () => reject(new Error("malformed multipart body")));
    parser.end(raw);
  });
}
