CREATE TABLE "tenant_invitations" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"email" varchar(254) NOT NULL,
	"member_type" varchar(16) DEFAULT 'Member' NOT NULL,
	"display_name" varchar(128),
	"effective_time" timestamp with time zone,
	"expiration_time" timestamp with time zone,
	"remark" text,
	"status" varchar(16) DEFAULT 'Pending' NOT NULL,
	"expires_time" timestamp with time zone NOT NULL,
	"responded_time" timestamp with time zone,
	"responded_by" bigint,
	"membership_id" bigint,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" bigint,
	"modified_time" timestamp with time zone,
	"modified_by" bigint
);
--> statement-breakpoint
ALTER TABLE "tenant_invitations" ADD CONSTRAINT "tenant_invitations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tenant_invitations_pending_uq" ON "tenant_invitations" USING btree ("tenant_id","email") WHERE "tenant_invitations"."status" = 'Pending';--> statement-breakpoint
CREATE INDEX "tenant_invitations_email_idx" ON "tenant_invitations" USING btree ("email");