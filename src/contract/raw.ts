/**
 * A result that is not JSON: an image (icons) or a CSV stream (exports). The HTTP faces send it
 * as is, with its content type; IPC hands the renderer bytes or text (a stream is collected
 * first: the window saves or copies it whole). Plain data, no Node import: the renderer may
 * import the types.
 */
export interface RawBody {
  readonly raw: true;
  contentType: string;
  /** Bytes (an image), or chunks of text produced as they are read (an export). */
  body: Uint8Array | AsyncIterable<string>;
  /** Extra response headers (Content-Disposition, Cache-Control, ...). */
  headers?: Record<string, string>;
}

/** What IPC delivers for a RawBody: the whole body, bytes for binary types and text for the rest. */
export interface RawReply {
  contentType: string;
  body: Uint8Array | string;
  headers?: Record<string, string>;
}

export function rawBody(contentType: string, body: RawBody['body'], headers?: Record<string, string>): RawBody {
  return { raw: true, contentType, body, ...(headers ? { headers } : {}) };
}

export function isRawBody(v: unknown): v is RawBody {
  return typeof v === 'object' && v !== null && (v as { raw?: unknown }).raw === true && 'contentType' in v && 'body' in v;
}

/** A RawBody collected for IPC (structured clone carries bytes and strings, not iterators). */
export async function collectRaw(r: RawBody): Promise<RawReply> {
  let body: Uint8Array | string;
  if (r.body instanceof Uint8Array) body = r.body;
  else {
    const parts: string[] = [];
    for await (const chunk of r.body) parts.push(chunk);
    body = parts.join('');
  }
  return { contentType: r.contentType, body, ...(r.headers ? { headers: r.headers } : {}) };
}
