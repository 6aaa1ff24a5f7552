/**
 * Reads the multipart bodies grammY sends when a call uploads a file. grammY writes
 * `content-disposition:form-data;name="x"` without spaces and unquoted file names, which
 * the WHATWG `formData()` parser refuses, so this is a small parser of its own.
 */

/** An uploaded file as the fake received it. */
export interface FakeFile {
  /** Form field the file came in (the id an `attach://` reference names). */
  field: string;
  filename: string;
  data: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: FakeFile[];
}

function boundaryOf(contentType: string): string | undefined {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m?.[1] ?? m?.[2];
}

function dispositionParam(header: string, key: string): string | undefined {
  const m = new RegExp(`(?:^|[;:\\s])${key}=(?:"([^"]*)"|([^;\\r\\n]*))`, "i").exec(header);
  return m?.[1] ?? m?.[2]?.trim();
}

/** Splits a multipart/form-data body into text fields and files; throws when malformed. */
export function parseMultipart(contentType: string, body: Buffer): MultipartBody {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw new Error("multipart body without a boundary");
  const delimiter = Buffer.from(`--${boundary}`);
  const fields: Record<string, string> = {};
  const files: FakeFile[] = [];
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw new Error("multipart body without its boundary");
  for (;;) {
    pos += delimiter.length;
    if (body.subarray(pos, pos + 2).toString() === "--") break;
    pos += 2;
    const next = body.indexOf(delimiter, pos);
    if (next < 0) throw new Error("multipart body not terminated");
    const part = body.subarray(pos, next - 2);
    const split = part.indexOf("\r\n\r\n");
    if (split < 0) throw new Error("multipart part without headers");
    const headers = part.subarray(0, split).toString("utf8");
    const content = part.subarray(split + 4);
    const name = dispositionParam(headers, "name");
    if (!name) throw new Error("multipart part without a name");
    const filename = dispositionParam(headers, "filename");
    if (filename === undefined) fields[name] = content.toString("utf8");
    else files.push({ field: name, filename, data: Buffer.from(content) });
    pos = next;
  }
  return { fields, files };
}
