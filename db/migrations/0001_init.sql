CREATE TABLE "api_credentials" (
	"id" bigint PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"tenant_id" bigint DEFAULT 0 NOT NULL,
	"credential_name" varchar(100),
	"app_key" varchar(64) NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"secret_key_id" varchar(32) NOT NULL,
	"signature_algorithm" varchar(16),
	"public_key" text,
	"ip_whitelist" text,
	"status" varchar(16) DEFAULT 'Enabled' NOT NULL,
	"expiration_time" timestamp with time zone,
	"last_used_time" timestamp with time zone,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" bigint,
	"modified_time" timestamp with time zone,
	"modified_by" bigint,
	"version" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_departments" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"department_id" bigint NOT NULL,
	"is_main" boolean DEFAULT false NOT NULL,
	"position_id" bigint,
	"employee_number" varchar(64),
	"grade" varchar(32),
	"entry_date" date,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" bigint,
	"modified_time" timestamp with time zone,
	"modified_by" bigint
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"role_id" bigint NOT NULL,
	"effective_time" timestamp with time zone,
	"expiration_time" timestamp with time zone,
	"status" varchar(16) DEFAULT 'Enabled' NOT NULL,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" bigint,
	"modified_time" timestamp with time zone,
	"modified_by" bigint
);
--> statement-breakpoint
CREATE TABLE "department_hierarchy" (
	"tenant_id" bigint NOT NULL,
	"ancestor_id" bigint NOT NULL,
	"descendant_id" bigint NOT NULL,
	"depth" integer NOT NULL,
	"path" text NOT NULL,
	"path_name" text NOT NULL,
	CONSTRAINT "department_hierarchy_ancestor_id_descendant_id_pk" PRIMARY KEY("ancestor_id","descendant_id")
);
--> statement-breakpoint
CREATE TABLE "departments" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"parent_id" bigint,
	"department_name" varchar(128) NOT NULL,
	"department_code" varchar(64),
	"department_type" varchar(32),
	"leader_id" bigint,
	"phone" varchar(32),
	"email" varchar(254),
	"address" text,
	"status" varchar(16) DEFAULT 'Enabled' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"remark" text,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" bigint,
	"modified_time" timestamp with time zone,
	"modified_by" bigint,
	"version" integer DEFAULT 0 NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"deleted_time" timestamp with time zone,
	"deleted_by" bigint
);
--> statement-breakpoint
CREATE TABLE "audit_entries" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" bigint DEFAULT 0 NOT NULL,
	"user_id" bigint,
	"actor_user_id" bigint,
	"action" varchar(64) NOT NULL,
	"target_type" varchar(64),
	"target_id" varchar(64),
	"detail" jsonb,
	"ip_address" varchar(64),
	"trace_id" varchar(128),
	"created_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_logs" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" bigint DEFAULT 0 NOT NULL,
	"user_id" bigint,
	"user_name" varchar(254),
	"session_id" bigint,
	"login_time" timestamp with time zone NOT NULL,
	"login_method" varchar(16),
	"login_ip" varchar(64),
	"login_location" varchar(128),
	"browser" varchar(64),
	"operating_system" varchar(64),
	"device_fingerprint" varchar(200),
	"result" smallint NOT NULL,
	"message" text,
	"is_risk_login" boolean DEFAULT false NOT NULL,
	"trace_id" varchar(128)
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" bigint DEFAULT 0 NOT NULL,
	"user_id" bigint NOT NULL,
	"notification_type" varchar(32) NOT NULL,
	"title" varchar(255) NOT NULL,
	"content" text,
	"content_format" varchar(16) DEFAULT 'Text' NOT NULL,
	"is_read" boolean DEFAULT false NOT NULL,
	"read_time" timestamp with time zone,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "menus" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" bigint DEFAULT 0 NOT NULL,
	"parent_id" bigint,
	"menu_type" varchar(16) NOT NULL,
	"menu_code" varchar(128) NOT NULL,
	"menu_name" varchar(128) NOT NULL,
	"title" varchar(128),
	"i18n_key" varchar(128),
	"path" varchar(255),
	"component" varchar(255),
	"redirect" varchar(255),
	"icon" varchar(128),
	"link" text,
	"permission_id" bigint,
	"is_visible" boolean DEFAULT true NOT NULL,
	"keep_alive" boolean DEFAULT false NOT NULL,
	"affix_tab" boolean DEFAULT false NOT NULL,
	"badge" varchar(32),
	"badge_type" varchar(16),
	"dot" boolean DEFAULT false NOT NULL,
	"status" varchar(16) DEFAULT 'Enabled' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"remark" text,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" bigint,
	"modified_time" timestamp with time zone,
	"modified_by" bigint,
	"version" integer DEFAULT 0 NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"deleted_time" timestamp with time zone,
	"deleted_by" bigint
);
--> statement-breakpoint
CREATE TABLE "permissions" (
	"id" bigint PRIMARY KEY NOT NULL,
	"code" varchar(128) NOT NULL,
	"name" varchar(128) NOT NULL,
	"group_code" varchar(64) NOT NULL,
	"description" text,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "permissions_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "positions" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"position_code" varchar(64) NOT NULL,
	"position_name" varchar(128) NOT NULL,
	"status" varchar(16) DEFAULT 'Enabled' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"remark" text,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" bigint,
	"modified_time" timestamp with time zone,
	"modified_by" bigint,
	"version" integer DEFAULT 0 NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"deleted_time" timestamp with time zone,
	"deleted_by" bigint
);
--> statement-breakpoint
CREATE TABLE "role_data_scope_departments" (
	"role_id" bigint NOT NULL,
	"department_id" bigint NOT NULL,
	CONSTRAINT "role_data_scope_departments_role_id_department_id_pk" PRIMARY KEY("role_id","department_id")
);
--> statement-breakpoint
CREATE TABLE "role_inheritances" (
	"role_id" bigint NOT NULL,
	"parent_role_id" bigint NOT NULL,
	CONSTRAINT "role_inheritances_role_id_parent_role_id_pk" PRIMARY KEY("role_id","parent_role_id")
);
--> statement-breakpoint
CREATE TABLE "role_permissions" (
	"role_id" bigint NOT NULL,
	"permission_id" bigint NOT NULL,
	"status" varchar(16) DEFAULT 'Enabled' NOT NULL,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" bigint,
	"modified_time" timestamp with time zone,
	"modified_by" bigint,
	CONSTRAINT "role_permissions_role_id_permission_id_pk" PRIMARY KEY("role_id","permission_id")
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"role_code" varchar(64) NOT NULL,
	"role_name" varchar(128) NOT NULL,
	"role_description" text,
	"role_type" varchar(16) DEFAULT 'Custom' NOT NULL,
	"data_scope" varchar(16) DEFAULT 'Self' NOT NULL,
	"max_members" integer DEFAULT 0 NOT NULL,
	"status" varchar(16) DEFAULT 'Enabled' NOT NULL,
	"is_system" integer DEFAULT 0 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"remark" text,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" bigint,
	"modified_time" timestamp with time zone,
	"modified_by" bigint,
	"version" integer DEFAULT 0 NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"deleted_time" timestamp with time zone,
	"deleted_by" bigint
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" bigint PRIMARY KEY NOT NULL,
	"session_id" bigint NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"issued_time" timestamp with time zone NOT NULL,
	"expires_time" timestamp with time zone NOT NULL,
	"used_time" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user_sessions" (
	"id" bigint PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"tenant_id" bigint DEFAULT 0 NOT NULL,
	"current_access_token_jti" varchar(64) NOT NULL,
	"security_stamp" varchar(64) NOT NULL,
	"device_type" varchar(16) DEFAULT 'Web' NOT NULL,
	"device_name" varchar(128),
	"device_fingerprint" varchar(200),
	"browser" varchar(64),
	"operating_system" varchar(64),
	"ip_address" varchar(64),
	"location" varchar(128),
	"login_method" varchar(16) DEFAULT 'password' NOT NULL,
	"login_time" timestamp with time zone NOT NULL,
	"last_activity_time" timestamp with time zone NOT NULL,
	"expiration_time" timestamp with time zone NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"is_locked" boolean DEFAULT false NOT NULL,
	"lock_reason" varchar(32),
	"lock_password_hash" text,
	"unlock_failed_attempts" integer DEFAULT 0 NOT NULL,
	"revoked_time" timestamp with time zone,
	"revoked_reason" varchar(128),
	"impersonator_user_id" bigint,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "system_settings" (
	"setting_key" varchar(128) PRIMARY KEY NOT NULL,
	"setting_value" text NOT NULL,
	"modified_time" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" bigint
);
--> statement-breakpoint
CREATE TABLE "editions" (
	"id" bigint PRIMARY KEY NOT NULL,
	"code" varchar(64) NOT NULL,
	"name" varchar(128) NOT NULL,
	"description" text,
	"permission_whitelist" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" varchar(16) DEFAULT 'Enabled' NOT NULL,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" bigint,
	"modified_time" timestamp with time zone,
	"modified_by" bigint,
	"version" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "editions_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "tenant_memberships" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"member_type" varchar(16) DEFAULT 'Member' NOT NULL,
	"status" varchar(16) DEFAULT 'Active' NOT NULL,
	"invite_status" varchar(16) DEFAULT 'Accepted' NOT NULL,
	"display_name" varchar(128),
	"effective_time" timestamp with time zone,
	"expiration_time" timestamp with time zone,
	"joined_time" timestamp with time zone DEFAULT now() NOT NULL,
	"remark" text,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" bigint,
	"modified_time" timestamp with time zone,
	"modified_by" bigint,
	"version" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" bigint PRIMARY KEY NOT NULL,
	"code" varchar(64) NOT NULL,
	"name" varchar(128) NOT NULL,
	"short_name" varchar(64),
	"logo" text,
	"domain" varchar(255),
	"status" varchar(16) DEFAULT 'Normal' NOT NULL,
	"config_status" varchar(16) DEFAULT 'Configured' NOT NULL,
	"suspended_time" timestamp with time zone,
	"suspend_reason" text,
	"edition_id" bigint,
	"seat_limit" integer DEFAULT 0 NOT NULL,
	"storage_quota_bytes" bigint DEFAULT 0 NOT NULL,
	"storage_used_bytes" bigint DEFAULT 0 NOT NULL,
	"expiration_time" timestamp with time zone,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" bigint,
	"modified_time" timestamp with time zone,
	"modified_by" bigint,
	"version" integer DEFAULT 0 NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"deleted_time" timestamp with time zone,
	"deleted_by" bigint
);
--> statement-breakpoint
CREATE TABLE "external_logins" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"provider" varchar(64) NOT NULL,
	"provider_key" varchar(255) NOT NULL,
	"provider_display_name" varchar(128),
	"email" varchar(254),
	"avatar_url" text,
	"last_login_time" timestamp with time zone,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" bigint,
	"modified_time" timestamp with time zone,
	"modified_by" bigint
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"channel_in_app" boolean DEFAULT true NOT NULL,
	"channel_email" boolean DEFAULT true NOT NULL,
	"channel_sms" boolean DEFAULT false NOT NULL,
	"channel_push" boolean DEFAULT true NOT NULL,
	"channel_bot" boolean DEFAULT false NOT NULL,
	"type_announcement" boolean DEFAULT true NOT NULL,
	"type_task" boolean DEFAULT true NOT NULL,
	"type_approval" boolean DEFAULT true NOT NULL,
	"type_security" boolean DEFAULT true NOT NULL,
	"type_marketing" boolean DEFAULT false NOT NULL,
	"modified_time" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "password_history" (
	"id" bigint PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"password_hash" text NOT NULL,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_security" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"password_hash" text NOT NULL,
	"password_changed_time" timestamp with time zone,
	"password_expires_time" timestamp with time zone,
	"must_change_password" boolean DEFAULT false NOT NULL,
	"two_factor_secret" text,
	"two_factor_method" integer DEFAULT 0 NOT NULL,
	"last_totp_step" integer,
	"security_stamp" varchar(64) NOT NULL,
	"failed_login_attempts" integer DEFAULT 0 NOT NULL,
	"last_failed_login_time" timestamp with time zone,
	"lockout_end_time" timestamp with time zone,
	"allow_multi_login" boolean DEFAULT true NOT NULL,
	"max_login_devices" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_settings" (
	"user_id" bigint NOT NULL,
	"scene" varchar(32) NOT NULL,
	"setting_key" varchar(128) NOT NULL,
	"setting_value" text,
	"modified_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_settings_user_id_scene_setting_key_pk" PRIMARY KEY("user_id","scene","setting_key")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"user_name" varchar(64) NOT NULL,
	"email" varchar(254),
	"phone" varchar(32),
	"email_verified" boolean DEFAULT false NOT NULL,
	"phone_verified" boolean DEFAULT false NOT NULL,
	"real_name" varchar(64),
	"nick_name" varchar(64),
	"avatar" text,
	"gender" smallint DEFAULT 0 NOT NULL,
	"birthday" date,
	"country" varchar(64),
	"remark" text,
	"status" varchar(16) DEFAULT 'Enabled' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_system_account" boolean DEFAULT false NOT NULL,
	"data_scope_override" varchar(16),
	"last_login_time" timestamp with time zone,
	"last_login_ip" varchar(64),
	"last_user_name_change_time" timestamp with time zone,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" bigint,
	"modified_time" timestamp with time zone,
	"modified_by" bigint,
	"version" integer DEFAULT 0 NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"deleted_time" timestamp with time zone,
	"deleted_by" bigint
);
--> statement-breakpoint
ALTER TABLE "api_credentials" ADD CONSTRAINT "api_credentials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_departments" ADD CONSTRAINT "user_departments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_departments" ADD CONSTRAINT "user_departments_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_departments" ADD CONSTRAINT "user_departments_position_id_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."positions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_permission_id_permissions_id_fk" FOREIGN KEY ("permission_id") REFERENCES "public"."permissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_data_scope_departments" ADD CONSTRAINT "role_data_scope_departments_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_inheritances" ADD CONSTRAINT "role_inheritances_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_inheritances" ADD CONSTRAINT "role_inheritances_parent_role_id_roles_id_fk" FOREIGN KEY ("parent_role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_permissions" ADD CONSTRAINT "role_permissions_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_permissions" ADD CONSTRAINT "role_permissions_permission_id_permissions_id_fk" FOREIGN KEY ("permission_id") REFERENCES "public"."permissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_session_id_user_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."user_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sessions" ADD CONSTRAINT "user_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_memberships" ADD CONSTRAINT "tenant_memberships_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenants" ADD CONSTRAINT "tenants_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_logins" ADD CONSTRAINT "external_logins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_history" ADD CONSTRAINT "password_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_security" ADD CONSTRAINT "user_security_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_credentials_app_key_uq" ON "api_credentials" USING btree ("app_key");--> statement-breakpoint
CREATE INDEX "api_credentials_user_idx" ON "api_credentials" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_departments_user_dept_uq" ON "user_departments" USING btree ("user_id","department_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_departments_main_uq" ON "user_departments" USING btree ("tenant_id","user_id") WHERE "user_departments"."is_main" = true;--> statement-breakpoint
CREATE INDEX "user_departments_dept_idx" ON "user_departments" USING btree ("department_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_roles_user_role_uq" ON "user_roles" USING btree ("tenant_id","user_id","role_id");--> statement-breakpoint
CREATE INDEX "user_roles_role_idx" ON "user_roles" USING btree ("role_id");--> statement-breakpoint
CREATE INDEX "department_hierarchy_descendant_idx" ON "department_hierarchy" USING btree ("descendant_id");--> statement-breakpoint
CREATE INDEX "departments_tenant_parent_idx" ON "departments" USING btree ("tenant_id","parent_id");--> statement-breakpoint
CREATE INDEX "audit_entries_tenant_time_idx" ON "audit_entries" USING btree ("tenant_id","created_time");--> statement-breakpoint
CREATE INDEX "audit_entries_user_action_idx" ON "audit_entries" USING btree ("user_id","action");--> statement-breakpoint
CREATE INDEX "login_logs_tenant_time_idx" ON "login_logs" USING btree ("tenant_id","login_time");--> statement-breakpoint
CREATE INDEX "login_logs_user_time_idx" ON "login_logs" USING btree ("user_id","login_time");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","created_time");--> statement-breakpoint
CREATE INDEX "menus_tenant_parent_idx" ON "menus" USING btree ("tenant_id","parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "menus_tenant_code_uq" ON "menus" USING btree ("tenant_id",lower("menu_code")) WHERE "menus"."is_deleted" = false;--> statement-breakpoint
CREATE UNIQUE INDEX "positions_tenant_code_uq" ON "positions" USING btree ("tenant_id",lower("position_code")) WHERE "positions"."is_deleted" = false;--> statement-breakpoint
CREATE INDEX "role_permissions_permission_idx" ON "role_permissions" USING btree ("permission_id");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_tenant_code_uq" ON "roles" USING btree ("tenant_id",lower("role_code")) WHERE "roles"."is_deleted" = false;--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_tokens_hash_uq" ON "refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "refresh_tokens_session_idx" ON "refresh_tokens" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "user_sessions_user_status_idx" ON "user_sessions" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "user_sessions_tenant_idx" ON "user_sessions" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tenant_memberships_tenant_user_uq" ON "tenant_memberships" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE INDEX "tenant_memberships_user_idx" ON "tenant_memberships" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tenants_code_uq" ON "tenants" USING btree (lower("code")) WHERE "tenants"."is_deleted" = false;--> statement-breakpoint
CREATE UNIQUE INDEX "external_logins_provider_key_uq" ON "external_logins" USING btree ("provider","provider_key","tenant_id");--> statement-breakpoint
CREATE INDEX "external_logins_user_idx" ON "external_logins" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "password_history_user_idx" ON "password_history" USING btree ("user_id","created_time");--> statement-breakpoint
CREATE UNIQUE INDEX "users_tenant_username_uq" ON "users" USING btree ("tenant_id",lower("user_name")) WHERE "users"."is_deleted" = false;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree (lower("email")) WHERE "users"."email" is not null and "users"."is_deleted" = false;--> statement-breakpoint
CREATE INDEX "users_tenant_created_idx" ON "users" USING btree ("tenant_id","created_time");--> statement-breakpoint
CREATE INDEX "users_username_trgm" ON "users" USING gin (lower("user_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_nickname_trgm" ON "users" USING gin (lower("nick_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm" ON "users" USING gin (lower("email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_phone_trgm" ON "users" USING gin ("phone" gin_trgm_ops);