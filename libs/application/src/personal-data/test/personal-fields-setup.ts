import { randomBytes } from 'node:crypto';
import type { Ack, Message, SealedMessage } from '@gw/domain-inbox';
import { SecretBox } from '../../secret-box';
import { PersonalData } from '../personal-fields';
import type { StoreUnderTest } from './stores';

// What the personal-fields specs share: a message and an ack with personal fields, one sealing key,
// and a store opened fresh for each test with one instance created on it.

/** A message whose personal fields are not plain ASCII. */
export const message: Message = {
  id: 'm1',
  chatId: '5511999999999@c.us',
  from: '5511888888888@c.us',
  fromMe: false,
  senderName: 'Ana Souza',
  type: 'chat',
  body: 'Olá, tudo bem? ✓',
  time: 1_767_225_600,
};
export const ack: Ack = { id: 'm1', chatId: '5511777777777@c.us', status: 'read', time: 1_767_225_601 };
/** The time every test records at. */
export const NOW = '2026-03-04T10:00:00.000Z';
/** The key that seals the day keys. */
export const box = new SecretBox(randomBytes(32));

/** The sealed message `id` as the store holds it in the instance's inbox. */
export const storedMessage = async (t: StoreUnderTest, instanceId: string, id = 'm1') =>
  (
    (await t.store.readStream(`inbox-${instanceId}`)).find(
      (e) => (e.data as { message?: SealedMessage }).message?.id === id,
    )!.data as { message: SealedMessage }
  ).message;

let created = 0;

/** A store from `open` with a new instance created on it, and its personal data. */
export async function openWithInstance(
  open: () => Promise<StoreUnderTest>,
): Promise<{ t: StoreUnderTest; personal: PersonalData; instanceId: string }> {
  const t = await open();
  const personal = PersonalData.on(t.store, box);
  const n = ++created;
  const instanceId = `pd${n}`;
  await t.store.append(
    `instance-${instanceId}`,
    [{ id: `c${n}`, type: 'InstanceCreated', data: { instanceId } }],
    'no_stream',
  );
  return { t, personal, instanceId };
}
