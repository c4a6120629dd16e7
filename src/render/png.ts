import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Canvas } from '@napi-rs/canvas';

const deflate = promisify(zlib.deflate);

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * The PNG of an opaque canvas (one whose context was made with `{ alpha: false }`), lossless, the
 * same pixels as `canvas.encode('png')`. Skia's encoder tries every row filter and deflates at zlib
 * level 6, about 60 ms for a 1280 × 1400 dashboard; pictures are flat colours, which deflate at
 * level 1 without filtering to about the same size in a fifth of the time. The pixels of an opaque
 * canvas come out without unpremultiplying (~2 ms); deflating runs off the event loop.
 */
export async function encodeOpaquePng(canvas: Canvas): Promise<Buffer> {
  const { width, height } = canvas;
  const pixels = canvas.data();
  const stride = width * 4;
  // Each row: filter type 0 (none), then its RGBA bytes (alpha is 255 everywhere on an opaque canvas).
  const raw = Buffer.allocUnsafe(height * (stride + 1));
  for (let y = 0; y < height; y += 1) {
    const at = y * (stride + 1);
    raw[at] = 0;
    pixels.copy(raw, at + 1, y * stride, (y + 1) * stride);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  const compressed = await deflate(raw, { level: 1 });
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', compressed), chunk('IEND', Buffer.alloc(0))]);
}
