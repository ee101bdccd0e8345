CREATE TABLE "announcements" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"notification_type" varchar(32) NOT NULL,
	"title" varchar(255) NOT NULL,
	"content" text,
	"content_format" varchar(16) DEFAULT 'Text' NOT NULL,
	"target_type" varchar(16) NOT NULL,
	"target_role_id" bigint,
	"send_user_id" bigint,
	"recipient_count" integer DEFAULT 0 NOT NULL,
	"send_time" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "notification_id" bigint;--> statement-breakpoint
CREATE INDEX "announcements_tenant_time_idx" ON "announcements" USING btree ("tenant_id","send_time");--> statement-breakpoint
CREATE INDEX "notifications_announcement_idx" ON "notifications" USING btree ("notification_id");--> statement-breakpoint
CREATE INDEX "notifications_user_unread_idx" ON "notifications" USING btree ("user_id","tenant_id") WHERE "notifications"."is_read" = false;