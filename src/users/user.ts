import { Type } from '@sinclair/typebox';
import { nullable, StringEnum, Timestamp } from '../http/schemas.js';
import { type DashboardUserRow, ROLES } from './user.table.js';

/** What the admin API and the dashboard's JSON say about a dashboard user. */
export const DashboardUserSchema = Type.Object(
  {
    id: Type.String({ examples: ['usr_Qm3Vb8Lk2Xz7Pw4Nc9Rt6Yh1'] }),
    email: Type.String({ examples: ['owner@shop.example'] }),
    role: StringEnum(ROLES),
    created_at: Timestamp,
    last_sign_in_at: Type.Optional(nullable(Timestamp)),
  },
  { title: 'DashboardUser' },
);

export function toUser(row: DashboardUserRow) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    created_at: row.created_at.toISOString(),
    last_sign_in_at: row.last_sign_in_at?.toISOString() ?? null,
  };
}
