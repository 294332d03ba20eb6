#!/usr/bin/env node
// Draws the plugin icon (plugin/.claude-plugin/icon.png, 512×512): candidate bars of
// rising utility, the argmax in accent colour, on a dark rounded square.
// Run again only to change the icon; the PNG is committed.
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const SIZE = 512;
const pixels = Buffer.alloc(SIZE * SIZE * 4);

function crc32(buf) {
  let c,
    crc = 0xffffffff;
  for (const byte of buf) {
    c = (crc ^ byte) & 0xff;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crc = (crc >>> 8) ^ c;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function inRoundedSquare(x, y, r) {
  const cx = Math.min(Math.max(x, r), SIZE - 1 - r);
  const cy = Math.min(Math.max(y, r), SIZE - 1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

const bars = [
  { x: 96, h: 150, color: [120, 134, 160] },
  { x: 196, h: 230, color: [120, 134, 160] },
  { x: 296, h: 330, color: [255, 176, 59] },
  { x: 396, h: 110, color: [120, 134, 160] },
];
const baseY = 420;

for (let y = 0; y < SIZE; y++) {
  for (let x = 0; x < SIZE; x++) {
    const i = (y * SIZE + x) * 4;
    if (!inRoundedSquare(x, y, 90)) continue; // transparent corners
    let rgb = [28 + (y / SIZE) * 10, 33 + (y / SIZE) * 12, 48 + (y / SIZE) * 20];
    for (const bar of bars) {
      if (x >= bar.x && x < bar.x + 60 && y <= baseY && y > baseY - bar.h) rgb = bar.color;
    }
    if (y >= baseY + 8 && y < baseY + 16 && x >= 80 && x < 472) rgb = [200, 208, 224];
    pixels.set([...rgb.map(Math.round), 255], i);
  }
}

const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) pixels.copy(raw, y * (SIZE * 4 + 1) + 1, y * SIZE * 4, (y + 1) * SIZE * 4);
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header.set([8, 6, 0, 0, 0], 8);
const png = Buffer.concat([
  Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
  chunk("IHDR", header),
  chunk("IDAT", deflateSync(raw, { level: 9 })),
  chunk("IEND", Buffer.alloc(0)),
]);
writeFileSync(new URL("../plugin/.claude-plugin/icon.png", import.meta.url), png);
console.log(`wrote plugin/.claude-plugin/icon.png (${png.length} bytes)`);
