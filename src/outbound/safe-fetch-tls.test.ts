// https through the checked lookup: the socket connects to the address that was checked while
// TLS still verifies the certificate against the URL's name (sent as SNI). The certificate is
// made for the test by the openssl command (Debian's openssl package; the test fails without it).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { TLSSocket } from 'node:tls';
import type { Resolver } from './checked-lookup.js';
import { OutboundRefusedError } from './outbound-error.js';
import { createSafeFetch } from './safe-fetch.js';

const NAME = 'api.example.test';
const dir = mkdtempSync(join(tmpdir(), 'weft-outbound-tls-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A certificate and key for NAME, self-signed, so the certificate is its own CA. */
function certificate(): { cert: string; key: string } {
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'];
  const paths = { key: join(dir, 'key.pem'), cert: join(dir, 'cert.pem') };
  const r = spawnSync('openssl', [
    ...args,
    '-keyout',
    paths.key,
    '-out',
    paths.cert,
    '-subj',
    `/CN=${NAME}`,
    '-addext',
    `subjectAltName=DNS:${NAME}`,
  ]);
  assert.equal(r.status, 0, String(r.stderr));
  return { cert: readFileSync(paths.cert, 'utf8'), key: readFileSync(paths.key, 'utf8') };
}

const toLoopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

test('https to a listed name resolving to loopback: verified against the name, refused unless listed', async () => {
  const { cert, key } = certificate();
  const sni: (string | false | null)[] = [];
  const server = createServer({ cert, key }, (_req, res) => res.end('over tls'));
  let connections = 0;
  server.on('connection', () => connections++);
  server.on('secureConnection', (socket: TLSSocket) => sni.push(socket.servername));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;

  const listed = createSafeFetch({ allowedHosts: [NAME, 'other.example.test'], resolver: toLoopback, ca: cert });
  const res = await listed(`https://${NAME}:${port}/v1/models`);
  assert.equal(await res.text(), 'over tls');
  assert.deepEqual(sni, [NAME]);
  // Same address, a name the certificate does not carry: verification still fails.
  await assert.rejects(listed(`https://other.example.test:${port}/`), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
  // Without the CA the self-signed certificate is not trusted.
  const untrusted = createSafeFetch({ allowedHosts: [NAME], resolver: toLoopback });
  await assert.rejects(untrusted(`https://${NAME}:${port}/`), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  const unlisted = createSafeFetch({ allowedHosts: [], resolver: toLoopback, ca: cert });
  await assert.rejects(unlisted(`https://${NAME}:${port}/`), OutboundRefusedError);
  // Three handshakes reached the server; the refused request opened no connection.
  assert.equal(connections, 3);
});
