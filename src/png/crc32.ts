/**
 * CRC-32 (ISO 3309, the checksum every PNG chunk ends with) over a byte range, table-driven.
 * Pure; the table is built on first use, not at import.
 */
let table: Uint32Array | null = null;

function crcTable(): Uint32Array {
  if (table !== null) return table;
  table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  const t = crcTable();
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = t[(crc ^ bytes[i]!) & 255]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
