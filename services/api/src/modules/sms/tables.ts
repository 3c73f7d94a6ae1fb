import type { Generated, Kysely } from 'kysely';
import type { DB, Id, Timestamp } from '@sprout/core/db';

/** One SMS configuration (BladeX's blade_sms; migration 0060). */
export interface SmsTable {
  tenant_id: string;
  id: Id;
  /** `log` (the embedded default: messages land in sms_log only) or `http` (a generic HTTP provider). */
  category: string;
  sms_code: string;
  template_id: string | null;
  access_key: string | null;
  /** Wrapped by core's KeyWrapper (base64), bound to the row (`smsSecret.context`, http/secret.ts). */
  secret_key: string | null;
  secret_key_wrapped_by: string | null;
  region_id: string | null;
  sign_name: string | null;
  endpoint: string | null;
  remark: string | null;
  /** 1 off, 2 on (BladeX). */
  status: Generated<number>;
  is_deleted: Generated<number>;
  create_user: Id | null;
  create_time: Timestamp;
  update_user: Id | null;
  update_time: Timestamp;
}

/** One message sent or failed. */
export interface SmsLogTable {
  tenant_id: string;
  id: Id;
  sms_id: Id | null;
  sms_code: string;
  category: string;
  phone: string;
  template_id: string | null;
  params: string;
  status: 'sent' | 'failed';
  reason: string | null;
  sender_name: string | null;
  is_deleted: Generated<number>;
  create_user: Id | null;
  create_time: Timestamp;
  update_user: Id | null;
  update_time: Timestamp;
}

export interface SmsTables {
  sms: SmsTable;
  sms_log: SmsLogTable;
}

/** A handle that knows this context's tables (core's DB type names the platform's only). */
export const smsDb = (db: Kysely<DB>) => db as unknown as Kysely<DB & SmsTables>;
