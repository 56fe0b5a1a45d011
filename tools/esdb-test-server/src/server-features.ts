// ServerFeatures.GetSupportedMethods: the client asks this once per connection and decides from it
// which calls to use. The client only consults it for Streams.BatchAppend (appendToStream uses
// BatchAppend when it is listed, the classic client-streaming Streams.Append otherwise) and for
// persistent-subscription and projection features. BatchAppend is deliberately NOT listed, so that
// client 6.2.1 falls back to Streams.Append, the only append this server implements.
import type { handleUnaryCall } from '@grpc/grpc-js';
import type { Empty } from '@eventstore/db-client/generated/shared_pb';
import { SupportedMethod, SupportedMethods } from '@eventstore/db-client/generated/serverfeatures_pb';
import type { CallRegistry } from './calls';

/** Reported as the server version; the client only logs it. */
const SERVER_VERSION = '23.10.0-esdb-test-server';

const SUPPORTED: ReadonlyArray<[service: string, method: string]> = [
  ['event_store.client.server_features.ServerFeatures', 'GetSupportedMethods'],
  ['event_store.client.streams.Streams', 'Read'],
  ['event_store.client.streams.Streams', 'Append'],
  ['event_store.client.streams.Streams', 'Delete'],
];

export function serverFeaturesHandlers(calls: CallRegistry): {
  getSupportedMethods: handleUnaryCall<Empty, SupportedMethods>;
} {
  return {
    getSupportedMethods: (_call, callback) => {
      const refusal = calls.refusal();
      if (refusal) return callback(refusal);
      const answer = new SupportedMethods();
      answer.setEventStoreServerVersion(SERVER_VERSION);
      for (const [service, method] of SUPPORTED) {
        const supported = new SupportedMethod();
        // EventStoreDB reports both names in lower case; the client lower-cases them anyway.
        supported.setServiceName(service.toLowerCase());
        supported.setMethodName(method.toLowerCase());
        answer.addMethods(supported);
      }
      callback(null, answer);
    },
  };
}
