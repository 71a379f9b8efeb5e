// An OTLP/HTTP request body to spans: the media type picks the encoding (protobuf or JSON),
// Content-Encoding the decompression (gzip, deflate, br, identity), and the inflated size is
// held to the same limit as every request body (a small compressed body may not inflate
// past it).
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { InvalidRequestError, RequestTooLargeError, UnsupportedMediaTypeError } from '../../api/errors.js';
import { decodeProtobufRequest } from './otlp-proto.js';
import { readExport, type OtlpExport } from './otlp-spans.js';

export type OtlpEncoding = 'protobuf' | 'json';

const MEDIA: Record<string, OtlpEncoding> = {
  'application/x-protobuf': 'protobuf',
  'application/protobuf': 'protobuf',
  'application/json': 'json',
};

/** The encoding a Content-Type names; 415 for any other. */
export function encodingOf(contentType: string | undefined): OtlpEncoding {
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const encoding = MEDIA[media];
  if (encoding === undefined) {
    throw new UnsupportedMediaTypeError(
      `OTLP/HTTP takes application/x-protobuf or application/json, not ${JSON.stringify(media || '(none)')}`,
    );
  }
  return encoding;
}

function tooLarge(err: unknown, limit: number): never {
  if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
    throw new RequestTooLargeError(`The request body inflates to more than ${limit} bytes`);
  throw new InvalidRequestError(`The request body is not valid for its Content-Encoding: ${(err as Error).message}`);
}

/** The body with its Content-Encoding undone. */
export function inflate(body: Buffer, contentEncoding: string | undefined, limit: number): Buffer {
  const coding = (contentEncoding ?? 'identity').trim().toLowerCase();
  const opts = { maxOutputLength: limit };
  try {
    switch (coding) {
      case '':
      case 'identity':
        return body;
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(body, opts);
      case 'br':
        return brotliDecompressSync(body, opts);
      case 'deflate':
        // RFC 9110's deflate is zlib-wrapped; some clients send it raw.
        try {
          return inflateSync(body, opts);
        } catch (err) {
          if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw err;
          return inflateRawSync(body, opts);
        }
      default:
    }
  } catch (err) {
    tooLarge(err, limit);
  }
  throw new UnsupportedMediaTypeError(
    `Content-Encoding ${JSON.stringify(coding)} is not supported: send gzip, deflate, br or none`,
  );
}

export function decodeExport(body: Buffer, encoding: OtlpEncoding): OtlpExport {
  let message: unknown;
  if (encoding === 'protobuf') {
    try {
      message = decodeProtobufRequest(body);
    } catch (err) {
      throw new InvalidRequestError(
        `The body is not an OTLP ExportTraceServiceRequest in protobuf: ${(err as Error).message}`,
      );
    }
  } else {
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch (err) {
      throw new InvalidRequestError(`The body is not JSON: ${(err as Error).message}`);
    }
  }
  return readExport(message);
}
