// The table checksum Hudi keeps in hoodie.properties: CRC32 (zlib polynomial) of "<database>.<table>".

const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC32 of bytes (the java.util.zip / zlib checksum), as an unsigned number. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = (TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** `hoodie.table.checksum` for a database and table name (a missing database counts as ''). */
export function tableChecksum(databaseName: string | undefined, tableName: string): number {
  return crc32(new TextEncoder().encode(`${databaseName ?? ''}.${tableName}`));
}
