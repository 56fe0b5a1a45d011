// `npm run record`: records an incoming text message (`chat`, not from the instance itself) with id
// MESSAGE_ID for INSTANCE_ID, as the gateway's ingest host does; the running notifier delivers it to
// the instance's webhook. Recording the same id again changes nothing. BODY and CHAT_ID are optional.
import { recordMessage, UnknownInstance } from '@gw/application';
import type { Message } from '@gw/domain-inbox';
import { required, withGatewayStore } from './environment.js';

const instanceId = required('INSTANCE_ID');
const message: Message = {
  id: required('MESSAGE_ID'),
  chatId: process.env['CHAT_ID'] || 'internal-app@c.us',
  from: process.env['CHAT_ID'] || 'internal-app@c.us',
  fromMe: false,
  senderName: 'internal-app',
  type: 'chat',
  body: process.env['BODY'] ?? '',
  time: Math.floor(Date.now() / 1000),
};

try {
  const written = await withGatewayStore((store, personalData) =>
    recordMessage(store, personalData, instanceId, message, new Date().toISOString()),
  );
  console.log(JSON.stringify({ instanceid: instanceId, messageid: message.id, position: String(written.position) }));
} catch (error) {
  if (!(error instanceof UnknownInstance)) throw error;
  process.stderr.write(`no instance ${instanceId}\n`);
  process.exitCode = 1;
}
