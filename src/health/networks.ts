import { Type } from '@sinclair/typebox';
import { WATCH_STATUSES } from '../chains/status.js';
import { nullable, StringEnum, Timestamp } from '../http/schemas.js';

export const NetworksSchema = Type.Array(
  Type.Object({
    network: Type.String({ description: 'A network of the registry; `sandbox` first' }),
    status: StringEnum(WATCH_STATUSES, {
      description:
        '"ok": watched, its node keeps up. "lagging": its node does not yet know blocks Paydesk has already read; the watcher waits for it (nothing is reversed) and payments on it are seen late. "unwatched": no RPC URL is configured; its methods are not offered to payers',
    }),
    reason: nullable(Type.String({ description: 'Why it is not "ok", in words; null when it is' })),
    since: nullable(Timestamp),
  }),
  { description: 'How each network is watched (contract §21); never makes health fail' },
);
