// The @gw/application package's entry: what an app outside this repository may use to write to
// and read the service's log as the service does. (The service's own apps import service.ts,
// which adds what only they need: accounts, secrets, command handling, ids.)

// Recording what the gateway receives, as the ingest host does: the notifier delivers it.
export { recordAck, recordMessage, UnknownInstance } from './record-inbound';
// Events in their current schema: every process writes and reads the log through this.
export {
  storedForm,
  UnreadableEventVersion,
  UnregisteredEventType,
  VersionedEventStore,
  withEventSchemas,
  writtenAt,
  type StoredEvent,
  type StoredEventType,
} from './event-schema';
// Personal data: sealed under SECRETS_KEY on record, opened for reading, erased by destroying keys.
export { SecretBox } from './secret-box';
export {
  DataKeys,
  ERASED,
  PersonalData,
  PersonalDataUnreadable,
  dataKeyStreamName,
  erasureStreamName,
  type DataKeysOptions,
  type Erased,
  type OpenedAck,
  type OpenedBody,
  type OpenedMessage,
  type PersonalDataEvent,
  type SealedKind,
} from './personal-data';
// Reading: a stream folded with the model the service folds it with.
export { readState, type LoadedState, type StreamModel } from './command-handler';
export { accountStream, inboxStream, instanceStream, notificationsStream } from './streams';
