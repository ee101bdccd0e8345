-- Platform codes (saas:tenant:*, saas:edition:*, saas:impersonation:cross-tenant) take effect only
-- in the platform state, and a tenant's role can no longer be given one. A role of a tenant may
-- hold one from before (a tenant administrator holding a code could grant it in its tenant, and
-- the cross-tenant code let such an administrator impersonate other tenants' users): those grants
-- are removed. Global roles (tenant 0) keep theirs.
DELETE FROM "role_permissions"
WHERE "role_id" IN (SELECT "id" FROM "roles" WHERE "tenant_id" <> 0)
  AND "permission_id" IN (SELECT "id" FROM "permissions" WHERE "group_code" IN ('tenant', 'edition') OR "code" = 'saas:impersonation:cross-tenant');
--> statement-breakpoint
-- Edition whitelists (what a tenant's catalogue lists) lose them too, unless nothing else would
-- remain: an empty whitelist allows every code, and such an edition's tenants used nothing before.
UPDATE "editions" SET "permission_whitelist" = ARRAY(
  SELECT "c" FROM unnest("permission_whitelist") AS "c"
  WHERE "c" NOT IN (SELECT "code" FROM "permissions" WHERE "group_code" IN ('tenant', 'edition') OR "code" = 'saas:impersonation:cross-tenant'))
WHERE EXISTS (SELECT 1 FROM unnest("permission_whitelist") AS "c" WHERE "c" IN (SELECT "code" FROM "permissions" WHERE "group_code" IN ('tenant', 'edition') OR "code" = 'saas:impersonation:cross-tenant'))
  AND EXISTS (SELECT 1 FROM unnest("permission_whitelist") AS "c" WHERE "c" NOT IN (SELECT "code" FROM "permissions" WHERE "group_code" IN ('tenant', 'edition') OR "code" = 'saas:impersonation:cross-tenant'));
