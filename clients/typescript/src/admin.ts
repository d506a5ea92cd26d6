// MemForestAdmin: the admin key's operations, tenants and their keys.
import { Transport, seg, type TransportOptions } from "./http.js";
import type { ApiKey, Page, Tenant } from "./types.js";

export interface AdminOptions extends TransportOptions {
  /** The server's admin key (MEMFOREST_ADMIN_KEY). */
  adminKey: string;
}

export class MemForestAdmin {
  private readonly http: Transport;

  constructor(options: AdminOptions) {
    this.http = new Transport(options.adminKey, options);
  }

  createTenant(name: string): Promise<Tenant> {
    return this.http.json("POST", "/v1/tenants", { json: { name } });
  }

  listTenants(): Promise<Page<Tenant>> {
    return this.http.json("GET", "/v1/tenants");
  }

  /** Delete a tenant and everything it owns. */
  async deleteTenant(tenantId: string): Promise<void> {
    await this.http.request("DELETE", `/v1/tenants/${seg(tenantId)}`);
  }

  /** A new key for the tenant; `key` is the secret, shown only here. */
  createKey(tenantId: string, scopes: string[] = ["read", "write"]): Promise<ApiKey> {
    return this.http.json("POST", `/v1/tenants/${seg(tenantId)}/keys`, { json: { scopes } });
  }

  listKeys(tenantId: string): Promise<Page<ApiKey>> {
    return this.http.json("GET", `/v1/tenants/${seg(tenantId)}/keys`);
  }

  /** Revoke a key (revoking twice is harmless). */
  async revokeKey(tenantId: string, keyId: string): Promise<void> {
    await this.http.request("DELETE", `/v1/tenants/${seg(tenantId)}/keys/${seg(keyId)}`);
  }
}
