// A body passing through the recording proxy (recording-proxy.mjs) on its way to disk: hashed as
// it flows, decompressed when the sender compressed it, and stored under its content hash, since
// every fresh browser context downloads the same scripts.
import { createHash } from 'node:crypto';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * A recorder for one body, written to `bodiesDir` as `.<name>.partial` while it flows.
 * @param {string} bodiesDir
 * @param {string} name
 * @param {string | undefined} [encoding] the sender's Content-Encoding
 */
export function bodyRecorder(bodiesDir, name, encoding) {
  const temporary = path.join(bodiesDir, `.${name}.partial`);
  const file = createWriteStream(temporary);
  const hash = createHash('sha256');
  let bytes = 0;
  let decodeError;
  const sink = (chunk) => {
    bytes += chunk.length;
    hash.update(chunk);
    file.write(chunk);
  };
  const decoder = decoderFor(encoding);
  if (decoder) {
    decoder.on('data', sink);
    decoder.on('error', (error) => (decodeError = error.message));
  }
  let finished;
  return {
    write(chunk) {
      if (decoder) decoder.write(chunk);
      else sink(chunk);
    },
    /** Settles with the stored body's name (its hash) and size; an empty body is not stored. */
    finish() {
      finished ??= new Promise((resolve) => {
        const close = () =>
          file.end(() => {
            const digest = hash.digest('hex');
            if (bytes === 0) rmSync(temporary, { force: true });
            else renameSync(temporary, path.join(bodiesDir, digest));
            resolve({ body: bytes === 0 ? null : digest, bytes, decoded: Boolean(decoder) && !decodeError, decodeError });
          });
        if (!decoder) return close();
        decoder.once('end', close);
        decoder.once('error', close);
        decoder.end();
      });
      return finished;
    },
  };
}

function decoderFor(encoding) {
  // SYNC_FLUSH: hand out what can be decoded so far, so a streamed response is recorded as it flows.
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  switch ((encoding ?? '').trim().toLowerCase()) {
    case '':
    case 'identity':
      return undefined;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(flush);
    case 'deflate':
      return zlib.createInflate(flush);
    case 'br':
      return zlib.createBrotliDecompress({
        flush: zlib.constants.BROTLI_OPERATION_FLUSH,
        finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
      });
    case 'zstd':
      // Node 22.15+ only; on older Node the raw bytes are kept and the record says so.
      return typeof zlib.createZstdDecompress === 'function' ? zlib.createZstdDecompress() : undefined;
    default:
      return undefined;
  }
}
