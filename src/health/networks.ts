import { Type } from '@sinclair/typebox';
import { WATCH_STATUSES } from '../chains/status.js';
import { nullable, StringEnum, Timestamp } from '../http/schemas.js';
import { FORWARDER_STATUSES, type ForwarderStatus } from '../watch/watched.js';

export const NetworksSchema = Type.Array(
  Type.Object({
    network: Type.String({ description: 'A network of the registry; `sandbox` first' }),
    status: StringEnum(WATCH_STATUSES, {
      description:
        '"ok": watched, its node keeps up. "lagging": its node does not yet know blocks Paydesk has already read; the watcher waits for it (nothing is reversed) and payments on it are seen late. "unwatched": no RPC URL is configured, or its node has not answered this instance since it started; its methods are not offered to payers',
    }),
    reason: nullable(Type.String({ description: 'Why it is not "ok", in words; null when it is' })),
    since: nullable(Timestamp),
    forwarders: Type.Unsafe<ForwarderStatus | null>({
      type: ['string', 'null'],
      enum: [...FORWARDER_STATUSES, null],
      description:
        'On a watched EVM network: "available" when the forwarder factory\'s code is at its address there (checked at start and every 5 minutes), "no_factory" when it is not (projects collecting through forwarders use their evm_xpub addresses there, or leave it out of new invoices without one), "unchecked" until the node has answered that check. null on other networks',
    }),
  }),
  { description: 'How each network is watched (contract §21); never makes health fail' },
);
