/** The platform tenant: it owns the catalogue and manages the other tenants. */
export const PLATFORM_TENANT_ID = '000000';
