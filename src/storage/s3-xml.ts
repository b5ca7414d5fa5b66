// The few S3 XML documents lakelet reads (ListObjectsV2 results, errors, multipart upload ids), parsed
// without DOMParser so the same code runs in Node, browsers and workerd. Also builds S3 listing requests.

/** One object of a ListObjectsV2 page. */
export interface S3Object {
  key: string;
  size: number;
  lastModified?: number;
}

/** One ListObjectsV2 page. */
export interface S3ListPage {
  objects: S3Object[];
  /** Common prefixes (with their trailing delimiter) of a delimited listing. */
  prefixes: string[];
  /** Token of the next page, when the listing is truncated. */
  nextToken?: string;
}

/** Decode the five XML entities and numeric character references. */
export function xmlDecode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_m, e: string) => {
    if (e === 'amp') return '&';
    if (e === 'lt') return '<';
    if (e === 'gt') return '>';
    if (e === 'quot') return '"';
    if (e === 'apos') return "'";
    const code = e.startsWith('#x') ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
    return String.fromCodePoint(code);
  });
}

/** The bodies of every `<tag>…</tag>` element (not nested in themselves), in document order. */
export function xmlElements(xml: string, tag: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'g');
  for (let m = re.exec(xml); m !== null; m = re.exec(xml)) out.push(m[1] as string);
  return out;
}

/** The decoded text of the first `<tag>` element, or undefined. */
export function xmlText(xml: string, tag: string): string | undefined {
  const body = xmlElements(xml, tag)[0];
  return body === undefined ? undefined : xmlDecode(body);
}

/** Parse a ListObjectsV2 (or V1) result. Throws a plain Error when it is not one. */
export function parseListResult(xml: string): S3ListPage {
  if (!/<ListBucketResult[\s>]/.test(xml)) throw new Error('not a ListBucketResult document');
  const objects: S3Object[] = [];
  for (const body of xmlElements(xml, 'Contents')) {
    const key = xmlText(body, 'Key');
    if (key === undefined) continue;
    const obj: S3Object = { key, size: Number(xmlText(body, 'Size') ?? '0') };
    const modified = Date.parse(xmlText(body, 'LastModified') ?? '');
    if (!Number.isNaN(modified)) obj.lastModified = modified;
    objects.push(obj);
  }
  const prefixes: string[] = [];
  for (const body of xmlElements(xml, 'CommonPrefixes')) {
    const p = xmlText(body, 'Prefix');
    if (p !== undefined) prefixes.push(p);
  }
  const page: S3ListPage = { objects, prefixes };
  if (xmlText(xml, 'IsTruncated') === 'true') {
    const token = xmlText(xml, 'NextContinuationToken');
    if (token !== undefined && token !== '') page.nextToken = token;
  }
  return page;
}

/** Code and message of an S3 `<Error>` document (empty strings when absent). */
export function parseS3Error(xml: string): { code: string; message: string } {
  return { code: xmlText(xml, 'Code') ?? '', message: xmlText(xml, 'Message') ?? '' };
}

/** The query string (without `?`) of one ListObjectsV2 request. */
export function listQuery(prefix: string, delimiter: boolean, token: string | undefined, maxKeys?: number): string {
  const params: [string, string][] = [['list-type', '2'], ['prefix', prefix]];
  if (delimiter) params.push(['delimiter', '/']);
  if (token !== undefined) params.push(['continuation-token', token]);
  if (maxKeys !== undefined) params.push(['max-keys', String(maxKeys)]);
  return params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
}
