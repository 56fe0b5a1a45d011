// Baseline of scenario a: a bare node:http server that reads the request body, as the API does, and
// answers a fixed JSON body of the API's size with the same content type.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { childArgs, emit, required } from '../support/child';

const body = Buffer.from(required(childArgs(), 'body-base64'), 'base64');
const server = createServer((req, res) => {
  req.on('data', () => undefined);
  req.on('end', () => {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
      'cache-control': 'no-store',
    });
    res.end(body);
  });
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => emit({ port: (server.address() as AddressInfo).port }));
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
